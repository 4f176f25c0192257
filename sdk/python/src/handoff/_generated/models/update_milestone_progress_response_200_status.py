from typing import Literal

UpdateMilestoneProgressResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

UPDATE_MILESTONE_PROGRESS_RESPONSE_200_STATUS_VALUES: set[
    UpdateMilestoneProgressResponse200Status
] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_update_milestone_progress_response_200_status(
    value: str,
) -> UpdateMilestoneProgressResponse200Status:
    if value in UPDATE_MILESTONE_PROGRESS_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_MILESTONE_PROGRESS_RESPONSE_200_STATUS_VALUES!r}"
    )
