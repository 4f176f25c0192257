from typing import Literal

DeclineOfferResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

DECLINE_OFFER_RESPONSE_200_STATUS_VALUES: set[DeclineOfferResponse200Status] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_decline_offer_response_200_status(
    value: str,
) -> DeclineOfferResponse200Status:
    if value in DECLINE_OFFER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DECLINE_OFFER_RESPONSE_200_STATUS_VALUES!r}"
    )
