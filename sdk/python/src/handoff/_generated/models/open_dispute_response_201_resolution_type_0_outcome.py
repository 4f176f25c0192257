from typing import Literal

OpenDisputeResponse201ResolutionType0Outcome = Literal["customer", "provider", "split"]

OPEN_DISPUTE_RESPONSE_201_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    OpenDisputeResponse201ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_open_dispute_response_201_resolution_type_0_outcome(
    value: str,
) -> OpenDisputeResponse201ResolutionType0Outcome:
    if value in OPEN_DISPUTE_RESPONSE_201_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OPEN_DISPUTE_RESPONSE_201_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
