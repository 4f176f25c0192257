from typing import Literal

GetProviderResponse200Availability = Literal["available", "away"]

GET_PROVIDER_RESPONSE_200_AVAILABILITY_VALUES: set[
    GetProviderResponse200Availability
] = {
    "available",
    "away",
}


def check_get_provider_response_200_availability(
    value: str,
) -> GetProviderResponse200Availability:
    if value in GET_PROVIDER_RESPONSE_200_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_RESPONSE_200_AVAILABILITY_VALUES!r}"
    )
