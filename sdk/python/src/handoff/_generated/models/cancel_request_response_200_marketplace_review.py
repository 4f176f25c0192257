from typing import Literal

CancelRequestResponse200MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

CANCEL_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES: set[
    CancelRequestResponse200MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_cancel_request_response_200_marketplace_review(
    value: str,
) -> CancelRequestResponse200MarketplaceReview:
    if value in CANCEL_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES!r}"
    )
