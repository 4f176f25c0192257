from typing import Literal

CreateHandoffRequestBodyTestScenario = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

CREATE_HANDOFF_REQUEST_BODY_TEST_SCENARIO_VALUES: set[
    CreateHandoffRequestBodyTestScenario
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_create_handoff_request_body_test_scenario(
    value: str,
) -> CreateHandoffRequestBodyTestScenario:
    if value in CREATE_HANDOFF_REQUEST_BODY_TEST_SCENARIO_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HANDOFF_REQUEST_BODY_TEST_SCENARIO_VALUES!r}"
    )
