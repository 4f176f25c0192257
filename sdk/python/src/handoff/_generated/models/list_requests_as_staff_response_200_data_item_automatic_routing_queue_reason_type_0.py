from typing import Literal

ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0 = Literal[
    "no_category", "no_eligible_provider", "offers_exhausted", "paused"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES: set[
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0
] = {
    "no_category",
    "no_eligible_provider",
    "offers_exhausted",
    "paused",
}


def check_list_requests_as_staff_response_200_data_item_automatic_routing_queue_reason_type_0(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES!r}"
    )
