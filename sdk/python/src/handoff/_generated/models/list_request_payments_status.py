from typing import Literal

ListRequestPaymentsStatus = Literal["completed", "failed", "pending"]

LIST_REQUEST_PAYMENTS_STATUS_VALUES: set[ListRequestPaymentsStatus] = {
    "completed",
    "failed",
    "pending",
}


def check_list_request_payments_status(value: str) -> ListRequestPaymentsStatus:
    if value in LIST_REQUEST_PAYMENTS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUEST_PAYMENTS_STATUS_VALUES!r}"
    )
