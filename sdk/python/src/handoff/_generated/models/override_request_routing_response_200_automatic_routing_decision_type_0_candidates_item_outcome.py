from typing import Literal

OverrideRequestRoutingResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome = (
    Literal["chosen", "eligible", "excluded"]
)

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES: set[
    OverrideRequestRoutingResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome
] = {
    "chosen",
    "eligible",
    "excluded",
}


def check_override_request_routing_response_200_automatic_routing_decision_type_0_candidates_item_outcome(
    value: str,
) -> (
    OverrideRequestRoutingResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome
):
    if (
        value
        in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES!r}"
    )
