from typing import Literal

CancelRequestResponse200RoutingMode = Literal["direct", "marketplace", "unassigned"]

CANCEL_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES: set[
    CancelRequestResponse200RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_cancel_request_response_200_routing_mode(
    value: str,
) -> CancelRequestResponse200RoutingMode:
    if value in CANCEL_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES!r}"
    )
