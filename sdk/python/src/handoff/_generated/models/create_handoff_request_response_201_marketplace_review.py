from typing import Literal

CreateHandoffRequestResponse201MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

CREATE_HANDOFF_REQUEST_RESPONSE_201_MARKETPLACE_REVIEW_VALUES: set[
    CreateHandoffRequestResponse201MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_create_handoff_request_response_201_marketplace_review(
    value: str,
) -> CreateHandoffRequestResponse201MarketplaceReview:
    if value in CREATE_HANDOFF_REQUEST_RESPONSE_201_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HANDOFF_REQUEST_RESPONSE_201_MARKETPLACE_REVIEW_VALUES!r}"
    )
