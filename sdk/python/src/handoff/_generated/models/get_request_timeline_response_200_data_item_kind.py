from typing import Literal

GetRequestTimelineResponse200DataItemKind = Literal[
    "deliverable",
    "dispute",
    "event",
    "job",
    "message",
    "milestone",
    "payment",
    "payment_request",
    "proposal",
]

GET_REQUEST_TIMELINE_RESPONSE_200_DATA_ITEM_KIND_VALUES: set[
    GetRequestTimelineResponse200DataItemKind
] = {
    "deliverable",
    "dispute",
    "event",
    "job",
    "message",
    "milestone",
    "payment",
    "payment_request",
    "proposal",
}


def check_get_request_timeline_response_200_data_item_kind(
    value: str,
) -> GetRequestTimelineResponse200DataItemKind:
    if value in GET_REQUEST_TIMELINE_RESPONSE_200_DATA_ITEM_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_TIMELINE_RESPONSE_200_DATA_ITEM_KIND_VALUES!r}"
    )
