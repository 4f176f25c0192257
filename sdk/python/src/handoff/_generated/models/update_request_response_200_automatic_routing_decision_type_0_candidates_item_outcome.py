from typing import Literal

UpdateRequestResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome = Literal[
    "chosen", "eligible", "excluded"
]

UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES: set[
    UpdateRequestResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome
] = {
    "chosen",
    "eligible",
    "excluded",
}


def check_update_request_response_200_automatic_routing_decision_type_0_candidates_item_outcome(
    value: str,
) -> UpdateRequestResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome:
    if (
        value
        in UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES!r}"
    )
