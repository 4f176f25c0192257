from typing import Literal

GetRequestResponse200RoutingMode = Literal["direct", "marketplace", "unassigned"]

GET_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES: set[GetRequestResponse200RoutingMode] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_get_request_response_200_routing_mode(
    value: str,
) -> GetRequestResponse200RoutingMode:
    if value in GET_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_ROUTING_MODE_VALUES!r}"
    )
