from typing import Literal

GetRequestAsStaffResponse200RoutingMode = Literal["direct", "marketplace", "unassigned"]

GET_REQUEST_AS_STAFF_RESPONSE_200_ROUTING_MODE_VALUES: set[
    GetRequestAsStaffResponse200RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_get_request_as_staff_response_200_routing_mode(
    value: str,
) -> GetRequestAsStaffResponse200RoutingMode:
    if value in GET_REQUEST_AS_STAFF_RESPONSE_200_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_ROUTING_MODE_VALUES!r}"
    )
