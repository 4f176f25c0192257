from typing import Literal

CountRequestsAsStaffRouting = Literal["direct", "marketplace", "unassigned"]

COUNT_REQUESTS_AS_STAFF_ROUTING_VALUES: set[CountRequestsAsStaffRouting] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_count_requests_as_staff_routing(value: str) -> CountRequestsAsStaffRouting:
    if value in COUNT_REQUESTS_AS_STAFF_ROUTING_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_REQUESTS_AS_STAFF_ROUTING_VALUES!r}"
    )
