from typing import Literal

UpdateProviderMeBodyAvailability = Literal["available", "away"]

UPDATE_PROVIDER_ME_BODY_AVAILABILITY_VALUES: set[UpdateProviderMeBodyAvailability] = {
    "available",
    "away",
}


def check_update_provider_me_body_availability(
    value: str,
) -> UpdateProviderMeBodyAvailability:
    if value in UPDATE_PROVIDER_ME_BODY_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_ME_BODY_AVAILABILITY_VALUES!r}"
    )
