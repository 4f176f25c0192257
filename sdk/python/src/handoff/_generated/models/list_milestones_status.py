from typing import Literal

ListMilestonesStatus = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

LIST_MILESTONES_STATUS_VALUES: set[ListMilestonesStatus] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_list_milestones_status(value: str) -> ListMilestonesStatus:
    if value in LIST_MILESTONES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_MILESTONES_STATUS_VALUES!r}"
    )
