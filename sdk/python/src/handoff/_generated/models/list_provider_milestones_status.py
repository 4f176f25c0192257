from typing import Literal

ListProviderMilestonesStatus = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

LIST_PROVIDER_MILESTONES_STATUS_VALUES: set[ListProviderMilestonesStatus] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_list_provider_milestones_status(value: str) -> ListProviderMilestonesStatus:
    if value in LIST_PROVIDER_MILESTONES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_MILESTONES_STATUS_VALUES!r}"
    )
