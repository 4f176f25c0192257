from typing import Literal

UpdateRequestResponse200AutomaticRoutingOffersItemBy = Literal["rules", "staff"]

UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES: set[
    UpdateRequestResponse200AutomaticRoutingOffersItemBy
] = {
    "rules",
    "staff",
}


def check_update_request_response_200_automatic_routing_offers_item_by(
    value: str,
) -> UpdateRequestResponse200AutomaticRoutingOffersItemBy:
    if value in UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES!r}"
    )
