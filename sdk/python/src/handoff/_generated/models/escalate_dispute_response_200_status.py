from typing import Literal

EscalateDisputeResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

ESCALATE_DISPUTE_RESPONSE_200_STATUS_VALUES: set[EscalateDisputeResponse200Status] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_escalate_dispute_response_200_status(
    value: str,
) -> EscalateDisputeResponse200Status:
    if value in ESCALATE_DISPUTE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ESCALATE_DISPUTE_RESPONSE_200_STATUS_VALUES!r}"
    )
