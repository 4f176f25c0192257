from typing import Literal

ListProvidersResponse200DataItemStatus = Literal["active", "suspended"]

LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProvidersResponse200DataItemStatus
] = {
    "active",
    "suspended",
}


def check_list_providers_response_200_data_item_status(
    value: str,
) -> ListProvidersResponse200DataItemStatus:
    if value in LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
