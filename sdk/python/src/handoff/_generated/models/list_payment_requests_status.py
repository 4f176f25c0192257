from typing import Literal

ListPaymentRequestsStatus = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

LIST_PAYMENT_REQUESTS_STATUS_VALUES: set[ListPaymentRequestsStatus] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_list_payment_requests_status(value: str) -> ListPaymentRequestsStatus:
    if value in LIST_PAYMENT_REQUESTS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PAYMENT_REQUESTS_STATUS_VALUES!r}"
    )
