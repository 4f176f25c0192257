from typing import Literal

ListProviderRequestsResponse200DataItemStatus = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderRequestsResponse200DataItemStatus
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_list_provider_requests_response_200_data_item_status(
    value: str,
) -> ListProviderRequestsResponse200DataItemStatus:
    if value in LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
