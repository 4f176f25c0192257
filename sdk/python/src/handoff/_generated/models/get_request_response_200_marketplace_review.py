from typing import Literal

GetRequestResponse200MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

GET_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES: set[
    GetRequestResponse200MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_get_request_response_200_marketplace_review(
    value: str,
) -> GetRequestResponse200MarketplaceReview:
    if value in GET_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_MARKETPLACE_REVIEW_VALUES!r}"
    )
