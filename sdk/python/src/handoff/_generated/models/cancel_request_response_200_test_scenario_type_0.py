from typing import Literal

CancelRequestResponse200TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

CANCEL_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES: set[
    CancelRequestResponse200TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_cancel_request_response_200_test_scenario_type_0(
    value: str,
) -> CancelRequestResponse200TestScenarioType0:
    if value in CANCEL_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
