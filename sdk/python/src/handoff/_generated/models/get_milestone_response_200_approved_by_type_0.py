from typing import Literal

GetMilestoneResponse200ApprovedByType0 = Literal["customer", "deadline"]

GET_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    GetMilestoneResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_get_milestone_response_200_approved_by_type_0(
    value: str,
) -> GetMilestoneResponse200ApprovedByType0:
    if value in GET_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
