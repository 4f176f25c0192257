from typing import Literal

CountRequestsAsStaffStatus = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

COUNT_REQUESTS_AS_STAFF_STATUS_VALUES: set[CountRequestsAsStaffStatus] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_count_requests_as_staff_status(value: str) -> CountRequestsAsStaffStatus:
    if value in COUNT_REQUESTS_AS_STAFF_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_REQUESTS_AS_STAFF_STATUS_VALUES!r}"
    )
