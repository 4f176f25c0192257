from typing import Literal

CreateProviderResponse201KeysItemStatus = Literal["active", "expired", "revoked"]

CREATE_PROVIDER_RESPONSE_201_KEYS_ITEM_STATUS_VALUES: set[
    CreateProviderResponse201KeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_create_provider_response_201_keys_item_status(
    value: str,
) -> CreateProviderResponse201KeysItemStatus:
    if value in CREATE_PROVIDER_RESPONSE_201_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_PROVIDER_RESPONSE_201_KEYS_ITEM_STATUS_VALUES!r}"
    )
