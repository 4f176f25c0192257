from typing import Literal

CancelMilestoneResponse200ApprovedByType0 = Literal["customer", "deadline"]

CANCEL_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    CancelMilestoneResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_cancel_milestone_response_200_approved_by_type_0(
    value: str,
) -> CancelMilestoneResponse200ApprovedByType0:
    if value in CANCEL_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
