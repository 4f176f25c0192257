from typing import Literal

ListRequestsAsStaffResponse200DataItemAutomaticRoutingState = Literal[
    "accepted", "manual", "offered", "queued", "routing"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_STATE_VALUES: set[
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingState
] = {
    "accepted",
    "manual",
    "offered",
    "queued",
    "routing",
}


def check_list_requests_as_staff_response_200_data_item_automatic_routing_state(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingState:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_STATE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_STATE_VALUES!r}"
    )
