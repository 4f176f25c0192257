from typing import Literal

GetRequestAsStaffResponse200AutomaticRoutingDecisionType0By = Literal["rules", "staff"]

GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES: set[
    GetRequestAsStaffResponse200AutomaticRoutingDecisionType0By
] = {
    "rules",
    "staff",
}


def check_get_request_as_staff_response_200_automatic_routing_decision_type_0_by(
    value: str,
) -> GetRequestAsStaffResponse200AutomaticRoutingDecisionType0By:
    if (
        value
        in GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_AS_STAFF_RESPONSE_200_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES!r}"
    )
