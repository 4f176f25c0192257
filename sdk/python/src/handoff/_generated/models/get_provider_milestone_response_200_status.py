from typing import Literal

GetProviderMilestoneResponse200Status = Literal[
    "approved", "cancelled", "changes_requested", "open", "submitted"
]

GET_PROVIDER_MILESTONE_RESPONSE_200_STATUS_VALUES: set[
    GetProviderMilestoneResponse200Status
] = {
    "approved",
    "cancelled",
    "changes_requested",
    "open",
    "submitted",
}


def check_get_provider_milestone_response_200_status(
    value: str,
) -> GetProviderMilestoneResponse200Status:
    if value in GET_PROVIDER_MILESTONE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_MILESTONE_RESPONSE_200_STATUS_VALUES!r}"
    )
