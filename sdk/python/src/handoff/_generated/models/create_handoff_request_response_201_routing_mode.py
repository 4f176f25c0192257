from typing import Literal

CreateHandoffRequestResponse201RoutingMode = Literal[
    "direct", "marketplace", "unassigned"
]

CREATE_HANDOFF_REQUEST_RESPONSE_201_ROUTING_MODE_VALUES: set[
    CreateHandoffRequestResponse201RoutingMode
] = {
    "direct",
    "marketplace",
    "unassigned",
}


def check_create_handoff_request_response_201_routing_mode(
    value: str,
) -> CreateHandoffRequestResponse201RoutingMode:
    if value in CREATE_HANDOFF_REQUEST_RESPONSE_201_ROUTING_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HANDOFF_REQUEST_RESPONSE_201_ROUTING_MODE_VALUES!r}"
    )
