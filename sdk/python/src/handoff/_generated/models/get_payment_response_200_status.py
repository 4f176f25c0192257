from typing import Literal

GetPaymentResponse200Status = Literal["completed", "failed", "pending"]

GET_PAYMENT_RESPONSE_200_STATUS_VALUES: set[GetPaymentResponse200Status] = {
    "completed",
    "failed",
    "pending",
}


def check_get_payment_response_200_status(value: str) -> GetPaymentResponse200Status:
    if value in GET_PAYMENT_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PAYMENT_RESPONSE_200_STATUS_VALUES!r}"
    )
