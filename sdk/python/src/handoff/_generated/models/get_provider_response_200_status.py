from typing import Literal

GetProviderResponse200Status = Literal["active", "suspended"]

GET_PROVIDER_RESPONSE_200_STATUS_VALUES: set[GetProviderResponse200Status] = {
    "active",
    "suspended",
}


def check_get_provider_response_200_status(value: str) -> GetProviderResponse200Status:
    if value in GET_PROVIDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_RESPONSE_200_STATUS_VALUES!r}"
    )
