from typing import Literal

UpdateRequestResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

UPDATE_REQUEST_RESPONSE_200_STATUS_VALUES: set[UpdateRequestResponse200Status] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_update_request_response_200_status(
    value: str,
) -> UpdateRequestResponse200Status:
    if value in UPDATE_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
