from typing import Literal

GetRequestAsStaffResponse200AutomaticRoutingOffersItemStatus = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES: set[
    GetRequestAsStaffResponse200AutomaticRoutingOffersItemStatus
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_get_request_as_staff_response_200_automatic_routing_offers_item_status(
    value: str,
) -> GetRequestAsStaffResponse200AutomaticRoutingOffersItemStatus:
    if (
        value
        in GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES!r}"
    )
