from typing import Literal

CreateHumanRequestLegacyBodyTestScenario = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

CREATE_HUMAN_REQUEST_LEGACY_BODY_TEST_SCENARIO_VALUES: set[
    CreateHumanRequestLegacyBodyTestScenario
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_create_human_request_legacy_body_test_scenario(
    value: str,
) -> CreateHumanRequestLegacyBodyTestScenario:
    if value in CREATE_HUMAN_REQUEST_LEGACY_BODY_TEST_SCENARIO_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HUMAN_REQUEST_LEGACY_BODY_TEST_SCENARIO_VALUES!r}"
    )
