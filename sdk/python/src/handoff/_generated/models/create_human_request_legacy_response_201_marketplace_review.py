from typing import Literal

CreateHumanRequestLegacyResponse201MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_MARKETPLACE_REVIEW_VALUES: set[
    CreateHumanRequestLegacyResponse201MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_create_human_request_legacy_response_201_marketplace_review(
    value: str,
) -> CreateHumanRequestLegacyResponse201MarketplaceReview:
    if value in CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_MARKETPLACE_REVIEW_VALUES!r}"
    )
