from typing import Literal

ReviewMarketplacePublicationBodyDecision = Literal["approved", "rejected"]

REVIEW_MARKETPLACE_PUBLICATION_BODY_DECISION_VALUES: set[
    ReviewMarketplacePublicationBodyDecision
] = {
    "approved",
    "rejected",
}


def check_review_marketplace_publication_body_decision(
    value: str,
) -> ReviewMarketplacePublicationBodyDecision:
    if value in REVIEW_MARKETPLACE_PUBLICATION_BODY_DECISION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVIEW_MARKETPLACE_PUBLICATION_BODY_DECISION_VALUES!r}"
    )
