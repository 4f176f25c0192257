from typing import Literal

CreateHandoffRequestResponse201Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

CREATE_HANDOFF_REQUEST_RESPONSE_201_STATUS_VALUES: set[
    CreateHandoffRequestResponse201Status
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_create_handoff_request_response_201_status(
    value: str,
) -> CreateHandoffRequestResponse201Status:
    if value in CREATE_HANDOFF_REQUEST_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HANDOFF_REQUEST_RESPONSE_201_STATUS_VALUES!r}"
    )
