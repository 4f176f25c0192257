from typing import Literal

ListProvidersResponse200DataItemAvailability = Literal["available", "away"]

LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_AVAILABILITY_VALUES: set[
    ListProvidersResponse200DataItemAvailability
] = {
    "available",
    "away",
}


def check_list_providers_response_200_data_item_availability(
    value: str,
) -> ListProvidersResponse200DataItemAvailability:
    if value in LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDERS_RESPONSE_200_DATA_ITEM_AVAILABILITY_VALUES!r}"
    )
