from typing import Literal

SubmitMilestoneResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

SUBMIT_MILESTONE_RESPONSE_200_STATUS_VALUES: set[SubmitMilestoneResponse200Status] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_submit_milestone_response_200_status(
    value: str,
) -> SubmitMilestoneResponse200Status:
    if value in SUBMIT_MILESTONE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUBMIT_MILESTONE_RESPONSE_200_STATUS_VALUES!r}"
    )
