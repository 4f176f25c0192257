from typing import Literal

ListDisputesAsStaffResponse200DataItemCommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    ListDisputesAsStaffResponse200DataItemCommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_list_disputes_as_staff_response_200_data_item_comments_item_author_role(
    value: str,
) -> ListDisputesAsStaffResponse200DataItemCommentsItemAuthorRole:
    if (
        value
        in LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
