from typing import Literal

UpdateIntegrationResponse200KeysItemStatus = Literal["active", "expired", "revoked"]

UPDATE_INTEGRATION_RESPONSE_200_KEYS_ITEM_STATUS_VALUES: set[
    UpdateIntegrationResponse200KeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_update_integration_response_200_keys_item_status(
    value: str,
) -> UpdateIntegrationResponse200KeysItemStatus:
    if value in UPDATE_INTEGRATION_RESPONSE_200_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_INTEGRATION_RESPONSE_200_KEYS_ITEM_STATUS_VALUES!r}"
    )
