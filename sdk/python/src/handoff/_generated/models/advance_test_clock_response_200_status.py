from typing import Literal

AdvanceTestClockResponse200Status = Literal["advancing", "ready"]

ADVANCE_TEST_CLOCK_RESPONSE_200_STATUS_VALUES: set[
    AdvanceTestClockResponse200Status
] = {
    "advancing",
    "ready",
}


def check_advance_test_clock_response_200_status(
    value: str,
) -> AdvanceTestClockResponse200Status:
    if value in ADVANCE_TEST_CLOCK_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADVANCE_TEST_CLOCK_RESPONSE_200_STATUS_VALUES!r}"
    )
