from typing import Literal

RejectPaymentRequestResponse200Status = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

REJECT_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES: set[
    RejectPaymentRequestResponse200Status
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_reject_payment_request_response_200_status(
    value: str,
) -> RejectPaymentRequestResponse200Status:
    if value in REJECT_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REJECT_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
