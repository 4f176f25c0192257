from typing import Literal

ListRequestsAsStaffResponse200DataItemStatus = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListRequestsAsStaffResponse200DataItemStatus
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_list_requests_as_staff_response_200_data_item_status(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemStatus:
    if value in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
