from typing import Literal

ListProviderDeliverablesResponse200DataItemStatus = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

LIST_PROVIDER_DELIVERABLES_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderDeliverablesResponse200DataItemStatus
] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_list_provider_deliverables_response_200_data_item_status(
    value: str,
) -> ListProviderDeliverablesResponse200DataItemStatus:
    if value in LIST_PROVIDER_DELIVERABLES_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_DELIVERABLES_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
