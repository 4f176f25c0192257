from typing import Literal

ListRequestPaymentRequestsResponse200DataItemStatus = Literal[
    "approved", "expired", "pending_approval", "rejected"
]

LIST_REQUEST_PAYMENT_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListRequestPaymentRequestsResponse200DataItemStatus
] = {
    "approved",
    "expired",
    "pending_approval",
    "rejected",
}


def check_list_request_payment_requests_response_200_data_item_status(
    value: str,
) -> ListRequestPaymentRequestsResponse200DataItemStatus:
    if value in LIST_REQUEST_PAYMENT_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUEST_PAYMENT_REQUESTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
