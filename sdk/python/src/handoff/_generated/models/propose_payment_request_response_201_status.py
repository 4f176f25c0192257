from typing import Literal

ProposePaymentRequestResponse201Status = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

PROPOSE_PAYMENT_REQUEST_RESPONSE_201_STATUS_VALUES: set[
    ProposePaymentRequestResponse201Status
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_propose_payment_request_response_201_status(
    value: str,
) -> ProposePaymentRequestResponse201Status:
    if value in PROPOSE_PAYMENT_REQUEST_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PROPOSE_PAYMENT_REQUEST_RESPONSE_201_STATUS_VALUES!r}"
    )
