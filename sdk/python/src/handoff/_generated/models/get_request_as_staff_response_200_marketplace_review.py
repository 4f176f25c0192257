from typing import Literal

GetRequestAsStaffResponse200MarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

GET_REQUEST_AS_STAFF_RESPONSE_200_MARKETPLACE_REVIEW_VALUES: set[
    GetRequestAsStaffResponse200MarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_get_request_as_staff_response_200_marketplace_review(
    value: str,
) -> GetRequestAsStaffResponse200MarketplaceReview:
    if value in GET_REQUEST_AS_STAFF_RESPONSE_200_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_MARKETPLACE_REVIEW_VALUES!r}"
    )
