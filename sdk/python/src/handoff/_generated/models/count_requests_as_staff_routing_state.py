from typing import Literal

CountRequestsAsStaffRoutingState = Literal[
    "accepted", "manual", "offered", "queued", "routing"
]

COUNT_REQUESTS_AS_STAFF_ROUTING_STATE_VALUES: set[CountRequestsAsStaffRoutingState] = {
    "accepted",
    "manual",
    "offered",
    "queued",
    "routing",
}


def check_count_requests_as_staff_routing_state(
    value: str,
) -> CountRequestsAsStaffRoutingState:
    if value in COUNT_REQUESTS_AS_STAFF_ROUTING_STATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_REQUESTS_AS_STAFF_ROUTING_STATE_VALUES!r}"
    )
