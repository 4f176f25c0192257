from typing import Literal

GetRequestResponse200PaymentsItemStatus = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

GET_REQUEST_RESPONSE_200_PAYMENTS_ITEM_STATUS_VALUES: set[
    GetRequestResponse200PaymentsItemStatus
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_get_request_response_200_payments_item_status(
    value: str,
) -> GetRequestResponse200PaymentsItemStatus:
    if value in GET_REQUEST_RESPONSE_200_PAYMENTS_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_PAYMENTS_ITEM_STATUS_VALUES!r}"
    )
