from typing import Literal

OverrideRequestRoutingResponse200RoutingMode = Literal[
    "direct", "marketplace", "unassigned"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_ROUTING_MODE_VALUES: set[
    OverrideRequestRoutingResponse200RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_override_request_routing_response_200_routing_mode(
    value: str,
) -> OverrideRequestRoutingResponse200RoutingMode:
    if value in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_ROUTING_MODE_VALUES!r}"
    )
