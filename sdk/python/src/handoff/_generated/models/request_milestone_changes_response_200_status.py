from typing import Literal

RequestMilestoneChangesResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

REQUEST_MILESTONE_CHANGES_RESPONSE_200_STATUS_VALUES: set[
    RequestMilestoneChangesResponse200Status
] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_request_milestone_changes_response_200_status(
    value: str,
) -> RequestMilestoneChangesResponse200Status:
    if value in REQUEST_MILESTONE_CHANGES_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REQUEST_MILESTONE_CHANGES_RESPONSE_200_STATUS_VALUES!r}"
    )
