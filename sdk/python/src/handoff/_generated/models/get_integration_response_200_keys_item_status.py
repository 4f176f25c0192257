from typing import Literal

GetIntegrationResponse200KeysItemStatus = Literal["active", "expired", "revoked"]

GET_INTEGRATION_RESPONSE_200_KEYS_ITEM_STATUS_VALUES: set[
    GetIntegrationResponse200KeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_get_integration_response_200_keys_item_status(
    value: str,
) -> GetIntegrationResponse200KeysItemStatus:
    if value in GET_INTEGRATION_RESPONSE_200_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_INTEGRATION_RESPONSE_200_KEYS_ITEM_STATUS_VALUES!r}"
    )
