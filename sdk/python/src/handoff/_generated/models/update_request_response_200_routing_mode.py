from typing import Literal

UpdateRequestResponse200RoutingMode = Literal["direct", "marketplace", "unassigned"]

UPDATE_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES: set[
    UpdateRequestResponse200RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_update_request_response_200_routing_mode(
    value: str,
) -> UpdateRequestResponse200RoutingMode:
    if value in UPDATE_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES!r}"
    )
