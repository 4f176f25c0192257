from typing import Literal

ListProviderSessionsResponse200DataItemStatus = Literal["active", "ended"]

LIST_PROVIDER_SESSIONS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderSessionsResponse200DataItemStatus
] = {
    "active",
    "ended",
}


def check_list_provider_sessions_response_200_data_item_status(
    value: str,
) -> ListProviderSessionsResponse200DataItemStatus:
    if value in LIST_PROVIDER_SESSIONS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_SESSIONS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
