from typing import Literal

WithdrawDisputeResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

WITHDRAW_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    WithdrawDisputeResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_withdraw_dispute_response_200_comments_item_author_role(
    value: str,
) -> WithdrawDisputeResponse200CommentsItemAuthorRole:
    if value in WITHDRAW_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WITHDRAW_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
