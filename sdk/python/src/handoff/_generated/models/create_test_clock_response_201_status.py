from typing import Literal

CreateTestClockResponse201Status = Literal["advancing", "ready"]

CREATE_TEST_CLOCK_RESPONSE_201_STATUS_VALUES: set[CreateTestClockResponse201Status] = {
    "advancing",
    "ready",
}


def check_create_test_clock_response_201_status(
    value: str,
) -> CreateTestClockResponse201Status:
    if value in CREATE_TEST_CLOCK_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_TEST_CLOCK_RESPONSE_201_STATUS_VALUES!r}"
    )
