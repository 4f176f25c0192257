from typing import Literal

UpdateRequestResponse200AutomaticRoutingOffersItemStatus = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES: set[
    UpdateRequestResponse200AutomaticRoutingOffersItemStatus
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_update_request_response_200_automatic_routing_offers_item_status(
    value: str,
) -> UpdateRequestResponse200AutomaticRoutingOffersItemStatus:
    if value in UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES!r}"
    )
