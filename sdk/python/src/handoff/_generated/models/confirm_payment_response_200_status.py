from typing import Literal

ConfirmPaymentResponse200Status = Literal["completed", "failed", "pending"]

CONFIRM_PAYMENT_RESPONSE_200_STATUS_VALUES: set[ConfirmPaymentResponse200Status] = {
    "completed",
    "failed",
    "pending",
}


def check_confirm_payment_response_200_status(
    value: str,
) -> ConfirmPaymentResponse200Status:
    if value in CONFIRM_PAYMENT_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONFIRM_PAYMENT_RESPONSE_200_STATUS_VALUES!r}"
    )
