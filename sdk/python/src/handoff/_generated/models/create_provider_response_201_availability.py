from typing import Literal

CreateProviderResponse201Availability = Literal["available", "away"]

CREATE_PROVIDER_RESPONSE_201_AVAILABILITY_VALUES: set[
    CreateProviderResponse201Availability
] = {
    "available",
    "away",
}


def check_create_provider_response_201_availability(
    value: str,
) -> CreateProviderResponse201Availability:
    if value in CREATE_PROVIDER_RESPONSE_201_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_PROVIDER_RESPONSE_201_AVAILABILITY_VALUES!r}"
    )
