from typing import Literal

GetProviderDisputeResponse200ResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

GET_PROVIDER_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    GetProviderDisputeResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_get_provider_dispute_response_200_resolution_type_0_outcome(
    value: str,
) -> GetProviderDisputeResponse200ResolutionType0Outcome:
    if value in GET_PROVIDER_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
