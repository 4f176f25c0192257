from typing import Literal

UpdateRequestResponse200AutomaticRoutingDecisionType0By = Literal["rules", "staff"]

UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES: set[
    UpdateRequestResponse200AutomaticRoutingDecisionType0By
] = {
    "rules",
    "staff",
}


def check_update_request_response_200_automatic_routing_decision_type_0_by(
    value: str,
) -> UpdateRequestResponse200AutomaticRoutingDecisionType0By:
    if value in UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES!r}"
    )
