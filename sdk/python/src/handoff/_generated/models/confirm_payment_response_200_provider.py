from typing import Literal

ConfirmPaymentResponse200Provider = Literal["manual", "stripe", "test"]

CONFIRM_PAYMENT_RESPONSE_200_PROVIDER_VALUES: set[ConfirmPaymentResponse200Provider] = {
    "manual",
    "stripe",
    "test",
}


def check_confirm_payment_response_200_provider(
    value: str,
) -> ConfirmPaymentResponse200Provider:
    if value in CONFIRM_PAYMENT_RESPONSE_200_PROVIDER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONFIRM_PAYMENT_RESPONSE_200_PROVIDER_VALUES!r}"
    )
