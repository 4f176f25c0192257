from typing import Literal

CreateMilestoneResponse201ApprovedByType0 = Literal["customer", "deadline"]

CREATE_MILESTONE_RESPONSE_201_APPROVED_BY_TYPE_0_VALUES: set[
    CreateMilestoneResponse201ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_create_milestone_response_201_approved_by_type_0(
    value: str,
) -> CreateMilestoneResponse201ApprovedByType0:
    if value in CREATE_MILESTONE_RESPONSE_201_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_MILESTONE_RESPONSE_201_APPROVED_BY_TYPE_0_VALUES!r}"
    )
