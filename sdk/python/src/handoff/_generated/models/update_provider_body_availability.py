from typing import Literal

UpdateProviderBodyAvailability = Literal["available", "away"]

UPDATE_PROVIDER_BODY_AVAILABILITY_VALUES: set[UpdateProviderBodyAvailability] = {
    "available",
    "away",
}


def check_update_provider_body_availability(
    value: str,
) -> UpdateProviderBodyAvailability:
    if value in UPDATE_PROVIDER_BODY_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_BODY_AVAILABILITY_VALUES!r}"
    )
