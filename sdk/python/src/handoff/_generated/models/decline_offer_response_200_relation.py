from typing import Literal

DeclineOfferResponse200Relation = Literal["engaged", "marketplace", "routed"]

DECLINE_OFFER_RESPONSE_200_RELATION_VALUES: set[DeclineOfferResponse200Relation] = {
    "engaged",
    "marketplace",
    "routed",
}


def check_decline_offer_response_200_relation(
    value: str,
) -> DeclineOfferResponse200Relation:
    if value in DECLINE_OFFER_RESPONSE_200_RELATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DECLINE_OFFER_RESPONSE_200_RELATION_VALUES!r}"
    )
