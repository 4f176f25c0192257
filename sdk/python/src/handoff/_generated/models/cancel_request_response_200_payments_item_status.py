from typing import Literal

CancelRequestResponse200PaymentsItemStatus = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

CANCEL_REQUEST_RESPONSE_200_PAYMENTS_ITEM_STATUS_VALUES: set[
    CancelRequestResponse200PaymentsItemStatus
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_cancel_request_response_200_payments_item_status(
    value: str,
) -> CancelRequestResponse200PaymentsItemStatus:
    if value in CANCEL_REQUEST_RESPONSE_200_PAYMENTS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_PAYMENTS_ITEM_STATUS_VALUES!r}"
    )
