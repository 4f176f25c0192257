from typing import Literal

OverrideRequestRoutingResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_STATUS_VALUES: set[
    OverrideRequestRoutingResponse200Status
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_override_request_routing_response_200_status(
    value: str,
) -> OverrideRequestRoutingResponse200Status:
    if value in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_STATUS_VALUES!r}"
    )
