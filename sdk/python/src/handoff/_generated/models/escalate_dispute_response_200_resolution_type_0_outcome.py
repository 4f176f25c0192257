from typing import Literal

EscalateDisputeResponse200ResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

ESCALATE_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    EscalateDisputeResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_escalate_dispute_response_200_resolution_type_0_outcome(
    value: str,
) -> EscalateDisputeResponse200ResolutionType0Outcome:
    if value in ESCALATE_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ESCALATE_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
