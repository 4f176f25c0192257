from typing import Literal

ReviewMarketplacePublicationResponse200MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_MARKETPLACE_REVIEW_VALUES: set[
    ReviewMarketplacePublicationResponse200MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_review_marketplace_publication_response_200_marketplace_review(
    value: str,
) -> ReviewMarketplacePublicationResponse200MarketplaceReview:
    if value in REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_MARKETPLACE_REVIEW_VALUES!r}"
    )
