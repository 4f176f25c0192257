from typing import Literal

OverrideRequestRoutingResponse200AutomaticRoutingQueueReasonType0 = Literal[
    "no_category", "no_eligible_provider", "offers_exhausted", "paused"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES: set[
    OverrideRequestRoutingResponse200AutomaticRoutingQueueReasonType0
] = {
    "no_category",
    "no_eligible_provider",
    "offers_exhausted",
    "paused",
}


def check_override_request_routing_response_200_automatic_routing_queue_reason_type_0(
    value: str,
) -> OverrideRequestRoutingResponse200AutomaticRoutingQueueReasonType0:
    if (
        value
        in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_QUEUE_REASON_TYPE_0_VALUES!r}"
    )
