from typing import Literal

OverrideRequestRoutingResponse200MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_MARKETPLACE_REVIEW_VALUES: set[
    OverrideRequestRoutingResponse200MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_override_request_routing_response_200_marketplace_review(
    value: str,
) -> OverrideRequestRoutingResponse200MarketplaceReview:
    if value in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_MARKETPLACE_REVIEW_VALUES!r}"
    )
