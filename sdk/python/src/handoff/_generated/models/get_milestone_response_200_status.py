from typing import Literal

GetMilestoneResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

GET_MILESTONE_RESPONSE_200_STATUS_VALUES: set[GetMilestoneResponse200Status] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_get_milestone_response_200_status(
    value: str,
) -> GetMilestoneResponse200Status:
    if value in GET_MILESTONE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_MILESTONE_RESPONSE_200_STATUS_VALUES!r}"
    )
