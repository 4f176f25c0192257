from typing import Literal

UpdateProviderResponse200Status = Literal["active", "suspended"]

UPDATE_PROVIDER_RESPONSE_200_STATUS_VALUES: set[UpdateProviderResponse200Status] = {
    "active",
    "suspended",
}


def check_update_provider_response_200_status(
    value: str,
) -> UpdateProviderResponse200Status:
    if value in UPDATE_PROVIDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_RESPONSE_200_STATUS_VALUES!r}"
    )
