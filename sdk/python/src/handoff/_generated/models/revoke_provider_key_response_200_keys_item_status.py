from typing import Literal

RevokeProviderKeyResponse200KeysItemStatus = Literal["active", "expired", "revoked"]

REVOKE_PROVIDER_KEY_RESPONSE_200_KEYS_ITEM_STATUS_VALUES: set[
    RevokeProviderKeyResponse200KeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_revoke_provider_key_response_200_keys_item_status(
    value: str,
) -> RevokeProviderKeyResponse200KeysItemStatus:
    if value in REVOKE_PROVIDER_KEY_RESPONSE_200_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVOKE_PROVIDER_KEY_RESPONSE_200_KEYS_ITEM_STATUS_VALUES!r}"
    )
