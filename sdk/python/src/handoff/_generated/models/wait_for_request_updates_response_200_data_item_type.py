from typing import Literal

WaitForRequestUpdatesResponse200DataItemType = Literal[
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

WAIT_FOR_REQUEST_UPDATES_RESPONSE_200_DATA_ITEM_TYPE_VALUES: set[
    WaitForRequestUpdatesResponse200DataItemType
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


def check_wait_for_request_updates_response_200_data_item_type(
    value: str,
) -> WaitForRequestUpdatesResponse200DataItemType:
    if value in WAIT_FOR_REQUEST_UPDATES_RESPONSE_200_DATA_ITEM_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WAIT_FOR_REQUEST_UPDATES_RESPONSE_200_DATA_ITEM_TYPE_VALUES!r}"
    )
