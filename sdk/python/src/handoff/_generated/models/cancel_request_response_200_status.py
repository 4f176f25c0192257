from typing import Literal

CancelRequestResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

CANCEL_REQUEST_RESPONSE_200_STATUS_VALUES: set[CancelRequestResponse200Status] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_cancel_request_response_200_status(
    value: str,
) -> CancelRequestResponse200Status:
    if value in CANCEL_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
