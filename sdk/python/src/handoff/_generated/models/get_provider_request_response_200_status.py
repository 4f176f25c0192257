from typing import Literal

GetProviderRequestResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

GET_PROVIDER_REQUEST_RESPONSE_200_STATUS_VALUES: set[
    GetProviderRequestResponse200Status
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_get_provider_request_response_200_status(
    value: str,
) -> GetProviderRequestResponse200Status:
    if value in GET_PROVIDER_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
