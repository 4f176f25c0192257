from typing import Literal

ListWebhookEndpointsResponse200DataItemEventTypesItem = Literal[
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

LIST_WEBHOOK_ENDPOINTS_RESPONSE_200_DATA_ITEM_EVENT_TYPES_ITEM_VALUES: set[
    ListWebhookEndpointsResponse200DataItemEventTypesItem
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


def check_list_webhook_endpoints_response_200_data_item_event_types_item(
    value: str,
) -> ListWebhookEndpointsResponse200DataItemEventTypesItem:
    if value in LIST_WEBHOOK_ENDPOINTS_RESPONSE_200_DATA_ITEM_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_WEBHOOK_ENDPOINTS_RESPONSE_200_DATA_ITEM_EVENT_TYPES_ITEM_VALUES!r}"
    )
