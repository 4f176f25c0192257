from typing import Literal

GetWebhookEndpointResponse200EventTypesItem = Literal[
    "deliverable.created",
    "dispute.created",
    "dispute.updated",
    "job.completed",
    "message.created",
    "milestone.approved",
    "milestone.created",
    "milestone.submitted",
    "milestone.updated",
    "payment.completed",
    "payment.failed",
    "payment.request_expired",
    "payment.request_rejected",
    "payment.requested",
    "proposal.accepted",
    "proposal.declined",
    "proposal.received",
    "request.created",
    "request.updated",
]

GET_WEBHOOK_ENDPOINT_RESPONSE_200_EVENT_TYPES_ITEM_VALUES: set[
    GetWebhookEndpointResponse200EventTypesItem
] = {
    "deliverable.created",
    "dispute.created",
    "dispute.updated",
    "job.completed",
    "message.created",
    "milestone.approved",
    "milestone.created",
    "milestone.submitted",
    "milestone.updated",
    "payment.completed",
    "payment.failed",
    "payment.request_expired",
    "payment.request_rejected",
    "payment.requested",
    "proposal.accepted",
    "proposal.declined",
    "proposal.received",
    "request.created",
    "request.updated",
}


def check_get_webhook_endpoint_response_200_event_types_item(
    value: str,
) -> GetWebhookEndpointResponse200EventTypesItem:
    if value in GET_WEBHOOK_ENDPOINT_RESPONSE_200_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_WEBHOOK_ENDPOINT_RESPONSE_200_EVENT_TYPES_ITEM_VALUES!r}"
    )
