from typing import Literal

ListRequestPaymentRequestsStatus = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

LIST_REQUEST_PAYMENT_REQUESTS_STATUS_VALUES: set[ListRequestPaymentRequestsStatus] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_list_request_payment_requests_status(
    value: str,
) -> ListRequestPaymentRequestsStatus:
    if value in LIST_REQUEST_PAYMENT_REQUESTS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUEST_PAYMENT_REQUESTS_STATUS_VALUES!r}"
    )
