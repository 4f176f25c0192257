from typing import Literal

DeclineOfferResponse200OfferType0Status = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

DECLINE_OFFER_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES: set[
    DeclineOfferResponse200OfferType0Status
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_decline_offer_response_200_offer_type_0_status(
    value: str,
) -> DeclineOfferResponse200OfferType0Status:
    if value in DECLINE_OFFER_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DECLINE_OFFER_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES!r}"
    )
