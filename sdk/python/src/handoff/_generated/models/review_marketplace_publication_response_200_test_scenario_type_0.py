from typing import Literal

ReviewMarketplacePublicationResponse200TestScenarioType0 = Literal[
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
]

REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES: set[
    ReviewMarketplacePublicationResponse200TestScenarioType0
] = {
    "asks_question",
    "declines",
    "disputes",
    "happy_path",
    "misses_deadline",
    "payment_fails",
    "requests_changes",
}


def check_review_marketplace_publication_response_200_test_scenario_type_0(
    value: str,
) -> ReviewMarketplacePublicationResponse200TestScenarioType0:
    if value in REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVIEW_MARKETPLACE_PUBLICATION_RESPONSE_200_TEST_SCENARIO_TYPE_0_VALUES!r}"
    )
