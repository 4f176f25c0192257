from typing import Literal

ListDisputesAsStaffResponse200DataItemStatus = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListDisputesAsStaffResponse200DataItemStatus
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_list_disputes_as_staff_response_200_data_item_status(
    value: str,
) -> ListDisputesAsStaffResponse200DataItemStatus:
    if value in LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
