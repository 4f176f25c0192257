from typing import Literal

OverrideRequestRoutingResponse200AutomaticRoutingState = Literal[
    "accepted", "manual", "offered", "queued", "routing"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES: set[
    OverrideRequestRoutingResponse200AutomaticRoutingState
] = {
    "accepted",
    "manual",
    "offered",
    "queued",
    "routing",
}


def check_override_request_routing_response_200_automatic_routing_state(
    value: str,
) -> OverrideRequestRoutingResponse200AutomaticRoutingState:
    if value in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES!r}"
    )
