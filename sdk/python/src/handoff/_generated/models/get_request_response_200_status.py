from typing import Literal

GetRequestResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

GET_REQUEST_RESPONSE_200_STATUS_VALUES: set[GetRequestResponse200Status] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_get_request_response_200_status(value: str) -> GetRequestResponse200Status:
    if value in GET_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
