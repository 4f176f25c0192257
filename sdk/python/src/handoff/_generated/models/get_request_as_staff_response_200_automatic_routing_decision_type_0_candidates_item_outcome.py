from typing import Literal

GetRequestAsStaffResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome = (
    Literal["chosen", "eligible", "excluded"]
)

GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES: set[
    GetRequestAsStaffResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome
] = {
    "chosen",
    "eligible",
    "excluded",
}


def check_get_request_as_staff_response_200_automatic_routing_decision_type_0_candidates_item_outcome(
    value: str,
) -> GetRequestAsStaffResponse200AutomaticRoutingDecisionType0CandidatesItemOutcome:
    if (
        value
        in GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES!r}"
    )
