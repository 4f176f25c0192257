from typing import Literal

GetDisputeAsStaffResponse200ResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

GET_DISPUTE_AS_STAFF_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    GetDisputeAsStaffResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_get_dispute_as_staff_response_200_resolution_type_0_outcome(
    value: str,
) -> GetDisputeAsStaffResponse200ResolutionType0Outcome:
    if value in GET_DISPUTE_AS_STAFF_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_AS_STAFF_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
