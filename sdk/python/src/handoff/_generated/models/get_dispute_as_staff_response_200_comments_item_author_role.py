from typing import Literal

GetDisputeAsStaffResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

GET_DISPUTE_AS_STAFF_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    GetDisputeAsStaffResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_get_dispute_as_staff_response_200_comments_item_author_role(
    value: str,
) -> GetDisputeAsStaffResponse200CommentsItemAuthorRole:
    if value in GET_DISPUTE_AS_STAFF_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_AS_STAFF_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
