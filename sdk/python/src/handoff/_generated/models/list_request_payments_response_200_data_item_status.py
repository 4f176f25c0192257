from typing import Literal

ListRequestPaymentsResponse200DataItemStatus = Literal["completed", "failed", "pending"]

LIST_REQUEST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListRequestPaymentsResponse200DataItemStatus
] = {
    "completed",
    "failed",
    "pending",
}


def check_list_request_payments_response_200_data_item_status(
    value: str,
) -> ListRequestPaymentsResponse200DataItemStatus:
    if value in LIST_REQUEST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUEST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
