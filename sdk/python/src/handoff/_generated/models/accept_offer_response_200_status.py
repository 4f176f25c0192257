from typing import Literal

AcceptOfferResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

ACCEPT_OFFER_RESPONSE_200_STATUS_VALUES: set[AcceptOfferResponse200Status] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_accept_offer_response_200_status(value: str) -> AcceptOfferResponse200Status:
    if value in ACCEPT_OFFER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCEPT_OFFER_RESPONSE_200_STATUS_VALUES!r}"
    )
