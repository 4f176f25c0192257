from typing import Literal

CreateWebhookEndpointResponse201EventTypesItem = Literal[
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

CREATE_WEBHOOK_ENDPOINT_RESPONSE_201_EVENT_TYPES_ITEM_VALUES: set[
    CreateWebhookEndpointResponse201EventTypesItem
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


def check_create_webhook_endpoint_response_201_event_types_item(
    value: str,
) -> CreateWebhookEndpointResponse201EventTypesItem:
    if value in CREATE_WEBHOOK_ENDPOINT_RESPONSE_201_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_WEBHOOK_ENDPOINT_RESPONSE_201_EVENT_TYPES_ITEM_VALUES!r}"
    )
