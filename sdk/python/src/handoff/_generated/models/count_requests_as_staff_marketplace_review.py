from typing import Literal

CountRequestsAsStaffMarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

COUNT_REQUESTS_AS_STAFF_MARKETPLACE_REVIEW_VALUES: set[
    CountRequestsAsStaffMarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_count_requests_as_staff_marketplace_review(
    value: str,
) -> CountRequestsAsStaffMarketplaceReview:
    if value in COUNT_REQUESTS_AS_STAFF_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COUNT_REQUESTS_AS_STAFF_MARKETPLACE_REVIEW_VALUES!r}"
    )
