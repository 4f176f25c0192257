from typing import Literal

GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0 = Literal[
    "no_category", "no_eligible_provider", "offers_exhausted", "paused"
]

GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES: set[
    GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0
] = {
    "no_category",
    "no_eligible_provider",
    "offers_exhausted",
    "paused",
}


def check_get_request_as_staff_response_200_automatic_routing_queue_reason_type_0(
    value: str,
) -> GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0:
    if (
        value
        in GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES!r}"
    )
