from typing import Literal

WaitForProviderRequestUpdatesResponse200DataItemType = Literal[
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

WAIT_FOR_PROVIDER_REQUEST_UPDATES_RESPONSE_200_DATA_ITEM_TYPE_VALUES: set[
    WaitForProviderRequestUpdatesResponse200DataItemType
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


def check_wait_for_provider_request_updates_response_200_data_item_type(
    value: str,
) -> WaitForProviderRequestUpdatesResponse200DataItemType:
    if value in WAIT_FOR_PROVIDER_REQUEST_UPDATES_RESPONSE_200_DATA_ITEM_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WAIT_FOR_PROVIDER_REQUEST_UPDATES_RESPONSE_200_DATA_ITEM_TYPE_VALUES!r}"
    )
