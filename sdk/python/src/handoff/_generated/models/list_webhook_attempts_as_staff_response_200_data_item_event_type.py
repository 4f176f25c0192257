from typing import Literal

ListWebhookAttemptsAsStaffResponse200DataItemEventType = Literal[
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

LIST_WEBHOOK_ATTEMPTS_AS_STAFF_RESPONSE_200_DATA_ITEM_EVENT_TYPE_VALUES: set[
    ListWebhookAttemptsAsStaffResponse200DataItemEventType
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


def check_list_webhook_attempts_as_staff_response_200_data_item_event_type(
    value: str,
) -> ListWebhookAttemptsAsStaffResponse200DataItemEventType:
    if value in LIST_WEBHOOK_ATTEMPTS_AS_STAFF_RESPONSE_200_DATA_ITEM_EVENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_WEBHOOK_ATTEMPTS_AS_STAFF_RESPONSE_200_DATA_ITEM_EVENT_TYPE_VALUES!r}"
    )
