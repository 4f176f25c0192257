from typing import Literal

EscalateDisputeResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

ESCALATE_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    EscalateDisputeResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_escalate_dispute_response_200_comments_item_author_role(
    value: str,
) -> EscalateDisputeResponse200CommentsItemAuthorRole:
    if value in ESCALATE_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ESCALATE_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
