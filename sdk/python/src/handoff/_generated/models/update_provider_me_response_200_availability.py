from typing import Literal

UpdateProviderMeResponse200Availability = Literal["available", "away"]

UPDATE_PROVIDER_ME_RESPONSE_200_AVAILABILITY_VALUES: set[
    UpdateProviderMeResponse200Availability
] = {
    "available",
    "away",
}


def check_update_provider_me_response_200_availability(
    value: str,
) -> UpdateProviderMeResponse200Availability:
    if value in UPDATE_PROVIDER_ME_RESPONSE_200_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_ME_RESPONSE_200_AVAILABILITY_VALUES!r}"
    )
