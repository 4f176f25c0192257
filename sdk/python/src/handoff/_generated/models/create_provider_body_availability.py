from typing import Literal

CreateProviderBodyAvailability = Literal["available", "away"]

CREATE_PROVIDER_BODY_AVAILABILITY_VALUES: set[CreateProviderBodyAvailability] = {
    "available",
    "away",
}


def check_create_provider_body_availability(
    value: str,
) -> CreateProviderBodyAvailability:
    if value in CREATE_PROVIDER_BODY_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_PROVIDER_BODY_AVAILABILITY_VALUES!r}"
    )
