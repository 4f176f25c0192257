from typing import Literal

FailPaymentResponse200Provider = Literal["manual", "stripe", "test"]

FAIL_PAYMENT_RESPONSE_200_PROVIDER_VALUES: set[FailPaymentResponse200Provider] = {
    "manual",
    "stripe",
    "test",
}


def check_fail_payment_response_200_provider(
    value: str,
) -> FailPaymentResponse200Provider:
    if value in FAIL_PAYMENT_RESPONSE_200_PROVIDER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FAIL_PAYMENT_RESPONSE_200_PROVIDER_VALUES!r}"
    )
