from typing import Literal

ListPaymentsResponse200DataItemProvider = Literal["manual", "stripe", "test"]

LIST_PAYMENTS_RESPONSE_200_DATA_ITEM_PROVIDER_VALUES: set[
    ListPaymentsResponse200DataItemProvider
] = {
    "manual",
    "stripe",
    "test",
}


def check_list_payments_response_200_data_item_provider(
    value: str,
) -> ListPaymentsResponse200DataItemProvider:
    if value in LIST_PAYMENTS_RESPONSE_200_DATA_ITEM_PROVIDER_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PAYMENTS_RESPONSE_200_DATA_ITEM_PROVIDER_VALUES!r}"
    )
