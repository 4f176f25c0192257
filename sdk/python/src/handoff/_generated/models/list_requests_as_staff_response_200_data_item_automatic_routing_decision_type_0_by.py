from typing import Literal

ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0By = Literal[
    "rules", "staff"
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES: set[
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0By
] = {
    "rules",
    "staff",
}


def check_list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_by(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0By:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_AUTOMATIC_ROUTING_DECISION_TYPE_0_BY_VALUES!r}"
    )
