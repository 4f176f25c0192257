from typing import Literal

ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItemStatus = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES: set[
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItemStatus
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_list_requests_as_staff_response_200_data_item_automatic_routing_offers_item_status(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItemStatus:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES!r}"
    )
