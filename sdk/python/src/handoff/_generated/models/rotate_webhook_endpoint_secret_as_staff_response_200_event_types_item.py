from typing import Literal

RotateWebhookEndpointSecretAsStaffResponse200EventTypesItem = Literal[
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

ROTATE_WEBHOOK_ENDPOINT_SECRET_AS_STAFF_RESPONSE_200_EVENT_TYPES_ITEM_VALUES: set[
    RotateWebhookEndpointSecretAsStaffResponse200EventTypesItem
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


def check_rotate_webhook_endpoint_secret_as_staff_response_200_event_types_item(
    value: str,
) -> RotateWebhookEndpointSecretAsStaffResponse200EventTypesItem:
    if (
        value
        in ROTATE_WEBHOOK_ENDPOINT_SECRET_AS_STAFF_RESPONSE_200_EVENT_TYPES_ITEM_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ROTATE_WEBHOOK_ENDPOINT_SECRET_AS_STAFF_RESPONSE_200_EVENT_TYPES_ITEM_VALUES!r}"
    )
