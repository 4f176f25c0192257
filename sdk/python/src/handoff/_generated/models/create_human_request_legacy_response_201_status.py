from typing import Literal

CreateHumanRequestLegacyResponse201Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_STATUS_VALUES: set[
    CreateHumanRequestLegacyResponse201Status
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_create_human_request_legacy_response_201_status(
    value: str,
) -> CreateHumanRequestLegacyResponse201Status:
    if value in CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_STATUS_VALUES!r}"
    )
