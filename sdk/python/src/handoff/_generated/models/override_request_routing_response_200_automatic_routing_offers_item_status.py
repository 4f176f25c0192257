from typing import Literal

OverrideRequestRoutingResponse200AutomaticRoutingOffersItemStatus = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES: set[
    OverrideRequestRoutingResponse200AutomaticRoutingOffersItemStatus
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_override_request_routing_response_200_automatic_routing_offers_item_status(
    value: str,
) -> OverrideRequestRoutingResponse200AutomaticRoutingOffersItemStatus:
    if (
        value
        in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_STATUS_VALUES!r}"
    )
