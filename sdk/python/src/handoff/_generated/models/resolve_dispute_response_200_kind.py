from typing import Literal

ResolveDisputeResponse200Kind = Literal["dispute", "refund"]

RESOLVE_DISPUTE_RESPONSE_200_KIND_VALUES: set[ResolveDisputeResponse200Kind] = {
    "dispute",
    "refund",
}


def check_resolve_dispute_response_200_kind(
    value: str,
) -> ResolveDisputeResponse200Kind:
    if value in RESOLVE_DISPUTE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {RESOLVE_DISPUTE_RESPONSE_200_KIND_VALUES!r}"
    )
