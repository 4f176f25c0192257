from typing import Literal

ListProviderDisputesResponse200DataItemStatus = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderDisputesResponse200DataItemStatus
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_list_provider_disputes_response_200_data_item_status(
    value: str,
) -> ListProviderDisputesResponse200DataItemStatus:
    if value in LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
