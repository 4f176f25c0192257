from typing import Literal

ReviewMarketplacePublicationResponse200Status = Literal[
    "cancelled", "completed", "in_progress", "routed", "submitted"
]

REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_STATUS_VALUES: set[
    ReviewMarketplacePublicationResponse200Status
] = {
    "cancelled",
    "completed",
    "in_progress",
    "routed",
    "submitted",
}


def check_review_marketplace_publication_response_200_status(
    value: str,
) -> ReviewMarketplacePublicationResponse200Status:
    if value in REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_STATUS_VALUES!r}"
    )
