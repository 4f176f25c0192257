from typing import Literal

UpdateProviderResponse200KeysItemStatus = Literal["active", "expired", "revoked"]

UPDATE_PROVIDER_RESPONSE_200_KEYS_ITEM_STATUS_VALUES: set[
    UpdateProviderResponse200KeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_update_provider_response_200_keys_item_status(
    value: str,
) -> UpdateProviderResponse200KeysItemStatus:
    if value in UPDATE_PROVIDER_RESPONSE_200_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_RESPONSE_200_KEYS_ITEM_STATUS_VALUES!r}"
    )
