from typing import Literal

UpdateMilestoneProgressResponse200ApprovedByType0 = Literal["customer", "deadline"]

UPDATE_MILESTONE_PROGRESS_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    UpdateMilestoneProgressResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_update_milestone_progress_response_200_approved_by_type_0(
    value: str,
) -> UpdateMilestoneProgressResponse200ApprovedByType0:
    if value in UPDATE_MILESTONE_PROGRESS_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_MILESTONE_PROGRESS_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
