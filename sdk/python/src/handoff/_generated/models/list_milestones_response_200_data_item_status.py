from typing import Literal

ListMilestonesResponse200DataItemStatus = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

LIST_MILESTONES_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListMilestonesResponse200DataItemStatus
] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_list_milestones_response_200_data_item_status(
    value: str,
) -> ListMilestonesResponse200DataItemStatus:
    if value in LIST_MILESTONES_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_MILESTONES_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
