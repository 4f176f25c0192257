from typing import Literal

RequestMilestoneChangesResponse200ApprovedByType0 = Literal["customer", "deadline"]

REQUEST_MILESTONE_CHANGES_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    RequestMilestoneChangesResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_request_milestone_changes_response_200_approved_by_type_0(
    value: str,
) -> RequestMilestoneChangesResponse200ApprovedByType0:
    if value in REQUEST_MILESTONE_CHANGES_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REQUEST_MILESTONE_CHANGES_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
