from typing import Literal

ReviewMarketplacePublicationResponse200RoutingMode = Literal[
    "direct", "marketplace", "unassigned"
]

REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_ROUTING_MODE_VALUES: set[
    ReviewMarketplacePublicationResponse200RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_review_marketplace_publication_response_200_routing_mode(
    value: str,
) -> ReviewMarketplacePublicationResponse200RoutingMode:
    if value in REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_ROUTING_MODE_VALUES!r}"
    )
