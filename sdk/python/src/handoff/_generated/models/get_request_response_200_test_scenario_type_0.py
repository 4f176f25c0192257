from typing import Literal

GetRequestResponse200TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

GET_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES: set[
    GetRequestResponse200TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_get_request_response_200_test_scenario_type_0(
    value: str,
) -> GetRequestResponse200TestScenarioType0:
    if value in GET_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
