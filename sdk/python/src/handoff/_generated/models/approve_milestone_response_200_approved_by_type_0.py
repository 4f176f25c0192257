from typing import Literal

ApproveMilestoneResponse200ApprovedByType0 = Literal["customer", "deadline"]

APPROVE_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    ApproveMilestoneResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_approve_milestone_response_200_approved_by_type_0(
    value: str,
) -> ApproveMilestoneResponse200ApprovedByType0:
    if value in APPROVE_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
