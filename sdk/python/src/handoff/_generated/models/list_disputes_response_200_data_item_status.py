from typing import Literal

ListDisputesResponse200DataItemStatus = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

LIST_DISPUTES_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListDisputesResponse200DataItemStatus
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_list_disputes_response_200_data_item_status(
    value: str,
) -> ListDisputesResponse200DataItemStatus:
    if value in LIST_DISPUTES_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
