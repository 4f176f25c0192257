from typing import Literal

ApprovePaymentRequestResponse200Status = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

APPROVE_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES: set[
    ApprovePaymentRequestResponse200Status
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_approve_payment_request_response_200_status(
    value: str,
) -> ApprovePaymentRequestResponse200Status:
    if value in APPROVE_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_PAYMENT_REQUEST_RESPONSE_200_STATUS_VALUES!r}"
    )
