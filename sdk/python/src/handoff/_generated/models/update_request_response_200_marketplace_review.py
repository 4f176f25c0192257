from typing import Literal

UpdateRequestResponse200MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

UPDATE_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES: set[
    UpdateRequestResponse200MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_update_request_response_200_marketplace_review(
    value: str,
) -> UpdateRequestResponse200MarketplaceReview:
    if value in UPDATE_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES!r}"
    )
