from typing import Literal

ListPaymentsResponse200DataItemStatus = Literal["completed", "failed", "pending"]

LIST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListPaymentsResponse200DataItemStatus
] = {
    "completed",
    "failed",
    "pending",
}


def check_list_payments_response_200_data_item_status(
    value: str,
) -> ListPaymentsResponse200DataItemStatus:
    if value in LIST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
