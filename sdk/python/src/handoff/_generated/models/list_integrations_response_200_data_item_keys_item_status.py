from typing import Literal

ListIntegrationsResponse200DataItemKeysItemStatus = Literal[
    "active", "expired", "revoked"
]

LIST_INTEGRATIONS_RESPONSE_200_DATA_ITEM_KEYS_ITEM_STATUS_VALUES: set[
    ListIntegrationsResponse200DataItemKeysItemStatus
] = {
    "active",
    "expired",
    "revoked",
}


def check_list_integrations_response_200_data_item_keys_item_status(
    value: str,
) -> ListIntegrationsResponse200DataItemKeysItemStatus:
    if value in LIST_INTEGRATIONS_RESPONSE_200_DATA_ITEM_KEYS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_INTEGRATIONS_RESPONSE_200_DATA_ITEM_KEYS_ITEM_STATUS_VALUES!r}"
    )
