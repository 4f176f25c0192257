from typing import Literal

CancelMilestoneResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

CANCEL_MILESTONE_RESPONSE_200_STATUS_VALUES: set[CancelMilestoneResponse200Status] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_cancel_milestone_response_200_status(
    value: str,
) -> CancelMilestoneResponse200Status:
    if value in CANCEL_MILESTONE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_MILESTONE_RESPONSE_200_STATUS_VALUES!r}"
    )
