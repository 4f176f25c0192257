from typing import Literal

GetTestClockResponse200Status = Literal["advancing", "ready"]

GET_TEST_CLOCK_RESPONSE_200_STATUS_VALUES: set[GetTestClockResponse200Status] = {
    "advancing",
    "ready",
}


def check_get_test_clock_response_200_status(
    value: str,
) -> GetTestClockResponse200Status:
    if value in GET_TEST_CLOCK_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_TEST_CLOCK_RESPONSE_200_STATUS_VALUES!r}"
    )
