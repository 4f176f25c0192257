from typing import Literal

ListRequestsAsStaffStatus = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

LIST_REQUESTS_AS_STAFF_STATUS_VALUES: set[ListRequestsAsStaffStatus] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_list_requests_as_staff_status(value: str) -> ListRequestsAsStaffStatus:
    if value in LIST_REQUESTS_AS_STAFF_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_STATUS_VALUES!r}"
    )
