from typing import Literal

CreateHumanRequestLegacyResponse201TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_TEST_SCENARIO_TYPE_0_VALUES: set[
    CreateHumanRequestLegacyResponse201TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_create_human_request_legacy_response_201_test_scenario_type_0(
    value: str,
) -> CreateHumanRequestLegacyResponse201TestScenarioType0:
    if value in CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HUMAN_REQUEST_LEGACY_RESPONSE_201_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
