from typing import Literal

ListRequestsAsStaffResponse200DataItemRoutingMode = Literal[
    "direct", "marketplace", "unassigned"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_ROUTING_MODE_VALUES: set[
    ListRequestsAsStaffResponse200DataItemRoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_list_requests_as_staff_response_200_data_item_routing_mode(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemRoutingMode:
    if value in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_ROUTING_MODE_VALUES!r}"
    )
