from typing import Literal

GetRequestPaymentRequestResponse200Status = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

GET_REQUEST_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES: set[
    GetRequestPaymentRequestResponse200Status
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_get_request_payment_request_response_200_status(
    value: str,
) -> GetRequestPaymentRequestResponse200Status:
    if value in GET_REQUEST_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
