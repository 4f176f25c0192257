from typing import Literal

UpdateProviderResponse200Availability = Literal["available", "away"]

UPDATE_PROVIDER_RESPONSE_200_AVAILABILITY_VALUES: set[
    UpdateProviderResponse200Availability
] = {
    "available",
    "away",
}


def check_update_provider_response_200_availability(
    value: str,
) -> UpdateProviderResponse200Availability:
    if value in UPDATE_PROVIDER_RESPONSE_200_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_RESPONSE_200_AVAILABILITY_VALUES!r}"
    )
