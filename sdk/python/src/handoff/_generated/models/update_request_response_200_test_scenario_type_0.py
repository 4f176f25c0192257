from typing import Literal

UpdateRequestResponse200TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

UPDATE_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES: set[
    UpdateRequestResponse200TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_update_request_response_200_test_scenario_type_0(
    value: str,
) -> UpdateRequestResponse200TestScenarioType0:
    if value in UPDATE_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
