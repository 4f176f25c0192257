from typing import Literal

AcceptOfferResponse200OfferType0Status = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

ACCEPT_OFFER_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES: set[
    AcceptOfferResponse200OfferType0Status
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_accept_offer_response_200_offer_type_0_status(
    value: str,
) -> AcceptOfferResponse200OfferType0Status:
    if value in ACCEPT_OFFER_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCEPT_OFFER_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES!r}"
    )
