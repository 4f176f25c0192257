from typing import Literal

GetDisputeResponse200CommentsItemAuthorRole = Literal["customer", "provider", "staff"]

GET_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    GetDisputeResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_get_dispute_response_200_comments_item_author_role(
    value: str,
) -> GetDisputeResponse200CommentsItemAuthorRole:
    if value in GET_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
