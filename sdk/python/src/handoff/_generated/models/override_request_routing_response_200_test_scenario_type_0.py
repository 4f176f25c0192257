from typing import Literal

OverrideRequestRoutingResponse200TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

OVERRIDE_REQUEST_ROUTING_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES: set[
    OverrideRequestRoutingResponse200TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_override_request_routing_response_200_test_scenario_type_0(
    value: str,
) -> OverrideRequestRoutingResponse200TestScenarioType0:
    if value in OVERRIDE_REQUEST_ROUTING_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {OVERRIDE_REQUEST_ROUTING_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
