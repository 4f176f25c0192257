from typing import Literal

ListRequestsAsStaffRoutingState = Literal[
    "accepted", "manual", "offered", "queued", "routing"
]

LIST_REQUESTS_AS_STAFF_ROUTING_STATE_VALUES: set[ListRequestsAsStaffRoutingState] = {
    "accepted",
    "manual",
    "offered",
    "queued",
    "routing",
}


def check_list_requests_as_staff_routing_state(
    value: str,
) -> ListRequestsAsStaffRoutingState:
    if value in LIST_REQUESTS_AS_STAFF_ROUTING_STATE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_ROUTING_STATE_VALUES!r}"
    )
