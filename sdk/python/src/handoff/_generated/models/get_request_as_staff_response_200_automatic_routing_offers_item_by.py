from typing import Literal

GetRequestAsStaffResponse200AutomaticRoutingOffersItemBy = Literal["rules", "staff"]

GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES: set[
    GetRequestAsStaffResponse200AutomaticRoutingOffersItemBy
] = {
    "rules",
    "staff",
}


def check_get_request_as_staff_response_200_automatic_routing_offers_item_by(
    value: str,
) -> GetRequestAsStaffResponse200AutomaticRoutingOffersItemBy:
    if (
        value
        in GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES!r}"
    )
