from typing import Literal

ListRequestsAsStaffResponse200DataItemMarketplaceReview = Literal[
    "approved", "not_requested", "pending_review", "rejected"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_MARKETPLACE_REVIEW_VALUES: set[
    ListRequestsAsStaffResponse200DataItemMarketplaceReview
] = {
    "approved",
    "not_requested",
    "pending_review",
    "rejected",
}


def check_list_requests_as_staff_response_200_data_item_marketplace_review(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemMarketplaceReview:
    if value in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_MARKETPLACE_REVIEW_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_MARKETPLACE_REVIEW_VALUES!r}"
    )
