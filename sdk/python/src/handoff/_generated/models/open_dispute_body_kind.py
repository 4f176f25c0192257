from typing import Literal

OpenDisputeBodyKind = Literal["dispute", "refund"]

OPEN_DISPUTE_BODY_KIND_VALUES: set[OpenDisputeBodyKind] = {
    "dispute",
    "refund",
}


def check_open_dispute_body_kind(value: str) -> OpenDisputeBodyKind:
    if value in OPEN_DISPUTE_BODY_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OPEN_DISPUTE_BODY_KIND_VALUES!r}"
    )
