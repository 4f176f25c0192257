from typing import Literal

EscalateDisputeResponse200Kind = Literal["dispute", "refund"]

ESCALATE_DISPUTE_RESPONSE_200_KIND_VALUES: set[EscalateDisputeResponse200Kind] = {
    "dispute",
    "refund",
}


def check_escalate_dispute_response_200_kind(
    value: str,
) -> EscalateDisputeResponse200Kind:
    if value in ESCALATE_DISPUTE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ESCALATE_DISPUTE_RESPONSE_200_KIND_VALUES!r}"
    )
