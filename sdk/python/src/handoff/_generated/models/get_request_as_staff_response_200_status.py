from typing import Literal

GetRequestAsStaffResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

GET_REQUEST_AS_STAFF_RESPONSE_200_STATUS_VALUES: set[
    GetRequestAsStaffResponse200Status
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_get_request_as_staff_response_200_status(
    value: str,
) -> GetRequestAsStaffResponse200Status:
    if value in GET_REQUEST_AS_STAFF_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_STATUS_VALUES!r}"
    )
