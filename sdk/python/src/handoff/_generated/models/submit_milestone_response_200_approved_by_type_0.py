from typing import Literal

SubmitMilestoneResponse200ApprovedByType0 = Literal["customer", "deadline"]

SUBMIT_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    SubmitMilestoneResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_submit_milestone_response_200_approved_by_type_0(
    value: str,
) -> SubmitMilestoneResponse200ApprovedByType0:
    if value in SUBMIT_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUBMIT_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
