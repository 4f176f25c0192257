from typing import Literal

GetRequestAsStaffResponse200AutomaticRoutingState = Literal[
    "accepted", "manual", "offered", "queued", "routing"
]

GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES: set[
    GetRequestAsStaffResponse200AutomaticRoutingState
] = {
    "accepted",
    "manual",
    "offered",
    "queued",
    "routing",
}


def check_get_request_as_staff_response_200_automatic_routing_state(
    value: str,
) -> GetRequestAsStaffResponse200AutomaticRoutingState:
    if value in GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_STATE_VALUES!r}"
    )
