from typing import Literal

ListDeadlinesResponse200DataItemResource = Literal[
    "deliverable",
    "dispute",
    "job",
    "marketplace_review",
    "milestone",
    "payment",
    "payment_request",
    "proposal",
    "request",
    "routing_offer",
]

LIST_DEADLINES_RESPONSE_200_DATA_ITEM_RESOURCE_VALUES: set[
    ListDeadlinesResponse200DataItemResource
] = {
    "deliverable",
    "dispute",
    "job",
    "marketplace_review",
    "milestone",
    "payment",
    "payment_request",
    "proposal",
    "request",
    "routing_offer",
}


def check_list_deadlines_response_200_data_item_resource(
    value: str,
) -> ListDeadlinesResponse200DataItemResource:
    if value in LIST_DEADLINES_RESPONSE_200_DATA_ITEM_RESOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DEADLINES_RESPONSE_200_DATA_ITEM_RESOURCE_VALUES!r}"
    )
