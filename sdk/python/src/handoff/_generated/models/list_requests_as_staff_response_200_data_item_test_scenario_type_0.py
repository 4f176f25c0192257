from typing import Literal

ListRequestsAsStaffResponse200DataItemTestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_TEST_SCENARIO_TYPE_0_VALUES: set[
    ListRequestsAsStaffResponse200DataItemTestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_list_requests_as_staff_response_200_data_item_test_scenario_type_0(
    value: str,
) -> ListRequestsAsStaffResponse200DataItemTestScenarioType0:
    if (
        value
        in LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_TEST_SCENARIO_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUESTS_AS_STAFF_RESPONSE_200_DATA_ITEM_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
