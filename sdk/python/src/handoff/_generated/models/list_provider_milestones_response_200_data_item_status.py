from typing import Literal

ListProviderMilestonesResponse200DataItemStatus = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

LIST_PROVIDER_MILESTONES_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderMilestonesResponse200DataItemStatus
] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_list_provider_milestones_response_200_data_item_status(
    value: str,
) -> ListProviderMilestonesResponse200DataItemStatus:
    if value in LIST_PROVIDER_MILESTONES_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_MILESTONES_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
