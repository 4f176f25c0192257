from typing import Literal

ResolveDisputeResponse200ResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

RESOLVE_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    ResolveDisputeResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_resolve_dispute_response_200_resolution_type_0_outcome(
    value: str,
) -> ResolveDisputeResponse200ResolutionType0Outcome:
    if value in RESOLVE_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RESOLVE_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
