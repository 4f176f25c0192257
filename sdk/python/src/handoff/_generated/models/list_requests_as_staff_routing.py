from typing import Literal

ListRequestsAsStaffRouting = Literal["direct", "marketplace", "unassigned"]

LIST_REQUESTS_AS_STAFF_ROUTING_VALUES: set[ListRequestsAsStaffRouting] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_list_requests_as_staff_routing(value: str) -> ListRequestsAsStaffRouting:
    if value in LIST_REQUESTS_AS_STAFF_ROUTING_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_ROUTING_VALUES!r}"
    )
