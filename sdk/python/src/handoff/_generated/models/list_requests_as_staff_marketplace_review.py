from typing import Literal

ListRequestsAsStaffMarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

LIST_REQUESTS_AS_STAFF_MARKETPLACE_REVIEW_VALUES: set[
    ListRequestsAsStaffMarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_list_requests_as_staff_marketplace_review(
    value: str,
) -> ListRequestsAsStaffMarketplaceReview:
    if value in LIST_REQUESTS_AS_STAFF_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_MARKETPLACE_REVIEW_VALUES!r}"
    )
