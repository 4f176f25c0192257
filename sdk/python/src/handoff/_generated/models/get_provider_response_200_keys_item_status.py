from typing import Literal

GetProviderResponse200KeysItemStatus = Literal["active", "expired", "revoked"]

GET_PROVIDER_RESPONSE_200_KEYS_ITEM_STATUS_VALUES: set[
    GetProviderResponse200KeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_get_provider_response_200_keys_item_status(
    value: str,
) -> GetProviderResponse200KeysItemStatus:
    if value in GET_PROVIDER_RESPONSE_200_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_RESPONSE_200_KEYS_ITEM_STATUS_VALUES!r}"
    )
