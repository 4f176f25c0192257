from typing import Literal

ResolveDisputeResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

RESOLVE_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    ResolveDisputeResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_resolve_dispute_response_200_comments_item_author_role(
    value: str,
) -> ResolveDisputeResponse200CommentsItemAuthorRole:
    if value in RESOLVE_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RESOLVE_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
