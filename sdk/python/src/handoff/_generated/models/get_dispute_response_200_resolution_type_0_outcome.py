from typing import Literal

GetDisputeResponse200ResolutionType0Outcome = Literal["customer", "provider", "split"]

GET_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    GetDisputeResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_get_dispute_response_200_resolution_type_0_outcome(
    value: str,
) -> GetDisputeResponse200ResolutionType0Outcome:
    if value in GET_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
