from typing import Literal

CreateHumanRequestLegacyResponse201RoutingMode = Literal[
    "direct", "marketplace", "unassigned"
]

CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_ROUTING_MODE_VALUES: set[
    CreateHumanRequestLegacyResponse201RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_create_human_request_legacy_response_201_routing_mode(
    value: str,
) -> CreateHumanRequestLegacyResponse201RoutingMode:
    if value in CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_ROUTING_MODE_VALUES!r}"
    )
