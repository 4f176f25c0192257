from typing import Literal

GetProviderMilestoneResponse200ApprovedByType0 = Literal["customer", "deadline"]

GET_PROVIDER_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES: set[
    GetProviderMilestoneResponse200ApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_get_provider_milestone_response_200_approved_by_type_0(
    value: str,
) -> GetProviderMilestoneResponse200ApprovedByType0:
    if value in GET_PROVIDER_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_MILESTONE_RESPONSE_200_APPROVED_BY_TYPE_0_VALUES!r}"
    )
