from typing import Literal

ResolveDisputeResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

RESOLVE_DISPUTE_RESPONSE_200_STATUS_VALUES: set[ResolveDisputeResponse200Status] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_resolve_dispute_response_200_status(
    value: str,
) -> ResolveDisputeResponse200Status:
    if value in RESOLVE_DISPUTE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RESOLVE_DISPUTE_RESPONSE_200_STATUS_VALUES!r}"
    )
