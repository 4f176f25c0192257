from typing import Literal

OverrideRequestRoutingResponse200AutomaticRoutingDecisionType0By = Literal[
    "rules", "staff"
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES: set[
    OverrideRequestRoutingResponse200AutomaticRoutingDecisionType0By
] = {
    "rules",
    "staff",
}


def check_override_request_routing_response_200_automatic_routing_decision_type_0_by(
    value: str,
) -> OverrideRequestRoutingResponse200AutomaticRoutingDecisionType0By:
    if (
        value
        in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES!r}"
    )
