from typing import Literal

OverrideRequestRoutingResponse200AutomaticRoutingOffersItemBy = Literal[
    "rules", "staff"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES: set[
    OverrideRequestRoutingResponse200AutomaticRoutingOffersItemBy
] = {
    "rules",
    "staff",
}


def check_override_request_routing_response_200_automatic_routing_offers_item_by(
    value: str,
) -> OverrideRequestRoutingResponse200AutomaticRoutingOffersItemBy:
    if (
        value
        in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_OFFERS_ITEM_BY_VALUES!r}"
    )
