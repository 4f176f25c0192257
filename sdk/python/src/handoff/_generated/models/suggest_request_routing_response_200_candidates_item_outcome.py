from typing import Literal

SuggestRequestRoutingResponse200CandidatesItemOutcome = Literal[
    "chosen", "eligible", "excluded"
]

SUGGEST_REQUEST_ROUTING_RESPONSE_200_CANDIDATES_ITEM_OUTCOME_VALUES: set[
    SuggestRequestRoutingResponse200CandidatesItemOutcome
] = {
    "chosen",
    "eligible",
    "excluded",
}


def check_suggest_request_routing_response_200_candidates_item_outcome(
    value: str,
) -> SuggestRequestRoutingResponse200CandidatesItemOutcome:
    if value in SUGGEST_REQUEST_ROUTING_RESPONSE_200_CANDIDATES_ITEM_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUGGEST_REQUEST_ROUTING_RESPONSE_200_CANDIDATES_ITEM_OUTCOME_VALUES!r}"
    )
