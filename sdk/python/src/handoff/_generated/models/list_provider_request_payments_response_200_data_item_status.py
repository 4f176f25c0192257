from typing import Literal

ListProviderRequestPaymentsResponse200DataItemStatus = Literal[
    "completed", "failed", "pending"
]

LIST_PROVIDER_REQUEST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderRequestPaymentsResponse200DataItemStatus
] = {
    "completed",
    "failed",
    "pending",
}


def check_list_provider_request_payments_response_200_data_item_status(
    value: str,
) -> ListProviderRequestPaymentsResponse200DataItemStatus:
    if value in LIST_PROVIDER_REQUEST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUEST_PAYMENTS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
