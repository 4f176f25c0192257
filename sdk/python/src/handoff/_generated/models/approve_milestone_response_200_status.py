from typing import Literal

ApproveMilestoneResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

APPROVE_MILESTONE_RESPONSE_200_STATUS_VALUES: set[ApproveMilestoneResponse200Status] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_approve_milestone_response_200_status(
    value: str,
) -> ApproveMilestoneResponse200Status:
    if value in APPROVE_MILESTONE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_MILESTONE_RESPONSE_200_STATUS_VALUES!r}"
    )
