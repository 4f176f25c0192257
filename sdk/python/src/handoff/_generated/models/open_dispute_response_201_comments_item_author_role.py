from typing import Literal

OpenDisputeResponse201CommentsItemAuthorRole = Literal["customer", "provider", "staff"]

OPEN_DISPUTE_RESPONSE_201_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    OpenDisputeResponse201CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_open_dispute_response_201_comments_item_author_role(
    value: str,
) -> OpenDisputeResponse201CommentsItemAuthorRole:
    if value in OPEN_DISPUTE_RESPONSE_201_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OPEN_DISPUTE_RESPONSE_201_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
