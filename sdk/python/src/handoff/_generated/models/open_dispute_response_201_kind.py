from typing import Literal

OpenDisputeResponse201Kind = Literal["dispute", "refund"]

OPEN_DISPUTE_RESPONSE_201_KIND_VALUES: set[OpenDisputeResponse201Kind] = {
    "dispute",
    "refund",
}


def check_open_dispute_response_201_kind(value: str) -> OpenDisputeResponse201Kind:
    if value in OPEN_DISPUTE_RESPONSE_201_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OPEN_DISPUTE_RESPONSE_201_KIND_VALUES!r}"
    )
