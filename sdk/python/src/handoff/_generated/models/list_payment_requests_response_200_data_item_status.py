from typing import Literal

ListPaymentRequestsResponse200DataItemStatus = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

LIST_PAYMENT_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListPaymentRequestsResponse200DataItemStatus
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_list_payment_requests_response_200_data_item_status(
    value: str,
) -> ListPaymentRequestsResponse200DataItemStatus:
    if value in LIST_PAYMENT_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PAYMENT_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
