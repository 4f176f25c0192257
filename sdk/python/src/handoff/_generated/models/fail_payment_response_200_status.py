from typing import Literal

FailPaymentResponse200Status = Literal["completed", "failed", "pending"]

FAIL_PAYMENT_RESPONSE_200_STATUS_VALUES: set[FailPaymentResponse200Status] = {
    "completed",
    "failed",
    "pending",
}


def check_fail_payment_response_200_status(value: str) -> FailPaymentResponse200Status:
    if value in FAIL_PAYMENT_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FAIL_PAYMENT_RESPONSE_200_STATUS_VALUES!r}"
    )
