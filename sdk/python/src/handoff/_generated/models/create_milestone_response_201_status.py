from typing import Literal

CreateMilestoneResponse201Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

CREATE_MILESTONE_RESPONSE_201_STATUS_VALUES: set[CreateMilestoneResponse201Status] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_create_milestone_response_201_status(
    value: str,
) -> CreateMilestoneResponse201Status:
    if value in CREATE_MILESTONE_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_MILESTONE_RESPONSE_201_STATUS_VALUES!r}"
    )
