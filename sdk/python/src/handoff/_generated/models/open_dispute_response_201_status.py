from typing import Literal

OpenDisputeResponse201Status = Literal["open", "resolved", "under_review", "withdrawn"]

OPEN_DISPUTE_RESPONSE_201_STATUS_VALUES: set[OpenDisputeResponse201Status] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_open_dispute_response_201_status(value: str) -> OpenDisputeResponse201Status:
    if value in OPEN_DISPUTE_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OPEN_DISPUTE_RESPONSE_201_STATUS_VALUES!r}"
    )
