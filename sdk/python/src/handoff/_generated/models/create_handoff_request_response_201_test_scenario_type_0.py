from typing import Literal

CreateHandoffRequestResponse201TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

CREATE_HANDOFF_REQUEST_RESPONSE_201_TEST_SCENARIO_TYPE_0_VALUES: set[
    CreateHandoffRequestResponse201TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_create_handoff_request_response_201_test_scenario_type_0(
    value: str,
) -> CreateHandoffRequestResponse201TestScenarioType0:
    if value in CREATE_HANDOFF_REQUEST_RESPONSE_201_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HANDOFF_REQUEST_RESPONSE_201_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
