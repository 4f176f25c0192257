from typing import Literal

AcceptOfferResponse200Relation = Literal["engaged", "marketplace", "routed"]

ACCEPT_OFFER_RESPONSE_200_RELATION_VALUES: set[AcceptOfferResponse200Relation] = {
    "engaged",
    "marketplace",
    "routed",
}


def check_accept_offer_response_200_relation(
    value: str,
) -> AcceptOfferResponse200Relation:
    if value in ACCEPT_OFFER_RESPONSE_200_RELATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCEPT_OFFER_RESPONSE_200_RELATION_VALUES!r}"
    )
