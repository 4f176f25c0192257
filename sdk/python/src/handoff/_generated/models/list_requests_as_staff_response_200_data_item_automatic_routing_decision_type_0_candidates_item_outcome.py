from typing import Literal

ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItemOutcome = Literal[
    "chosen", "eligible", "excluded"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES: set[
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItemOutcome
] = {
    "chosen",
    "eligible",
    "excluded",
}


def check_list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item_outcome(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItemOutcome:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_DECISION_TYPE_0_CANDIDATES_ITEM_OUTCOME_VALUES!r}"
    )
