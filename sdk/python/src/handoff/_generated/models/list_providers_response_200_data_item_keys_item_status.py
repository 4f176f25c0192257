from typing import Literal

ListProvidersResponse200DataItemKeysItemStatus = Literal["active", "expired", "revoked"]

LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_KEYS_ITEM_STATUS_VALUES: set[
    ListProvidersResponse200DataItemKeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_list_providers_response_200_data_item_keys_item_status(
    value: str,
) -> ListProvidersResponse200DataItemKeysItemStatus:
    if value in LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_KEYS_ITEM_STATUS_VALUES!r}"
    )
