from typing import Literal

ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItemBy = Literal[
    "rules", "staff"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES: set[
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItemBy
] = {
    "rules",
    "staff",
}


def check_list_requests_as_staff_response_200_data_item_automatic_routing_offers_item_by(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItemBy:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES!r}"
    )
