from typing import Literal

UpdateRequestResponse200AutomaticRoutingQueueReasonType0 = Literal[
    "no_category", "no_eligible_provider", "offers_exhausted", "paused"
]

UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES: set[
    UpdateRequestResponse200AutomaticRoutingQueueReasonType0
] = {
    "no_category",
    "no_eligible_provider",
    "offers_exhausted",
    "paused",
}


def check_update_request_response_200_automatic_routing_queue_reason_type_0(
    value: str,
) -> UpdateRequestResponse200AutomaticRoutingQueueReasonType0:
    if (
        value
        in UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES!r}"
    )
