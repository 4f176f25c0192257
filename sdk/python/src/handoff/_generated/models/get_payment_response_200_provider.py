from typing import Literal

GetPaymentResponse200Provider = Literal["manual", "stripe", "test"]

GET_PAYMENT_RESPONSE_200_PROVIDER_VALUES: set[GetPaymentResponse200Provider] = {
    "manual",
    "stripe",
    "test",
}


def check_get_payment_response_200_provider(
    value: str,
) -> GetPaymentResponse200Provider:
    if value in GET_PAYMENT_RESPONSE_200_PROVIDER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PAYMENT_RESPONSE_200_PROVIDER_VALUES!r}"
    )
