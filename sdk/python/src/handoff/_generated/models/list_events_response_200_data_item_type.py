from typing import Literal

ListEventsResponse200DataItemType = Literal[
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

LIST_EVENTS_RESPONSE_200_DATA_ITEM_TYPE_VALUES: set[
    ListEventsResponse200DataItemType
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


def check_list_events_response_200_data_item_type(
    value: str,
) -> ListEventsResponse200DataItemType:
    if value in LIST_EVENTS_RESPONSE_200_DATA_ITEM_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_EVENTS_RESPONSE_200_DATA_ITEM_TYPE_VALUES!r}"
    )
