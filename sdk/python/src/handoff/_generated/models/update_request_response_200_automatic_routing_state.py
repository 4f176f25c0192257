from typing import Literal

UpdateRequestResponse200AutomaticRoutingState = Literal[
    "accepted", "manual", "offered", "queued", "routing"
]

UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES: set[
    UpdateRequestResponse200AutomaticRoutingState
] = {
    "accepted",
    "manual",
    "offered",
    "queued",
    "routing",
}


def check_update_request_response_200_automatic_routing_state(
    value: str,
) -> UpdateRequestResponse200AutomaticRoutingState:
    if value in UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES!r}"
    )
