from typing import Literal

UpdateProviderBodyStatus = Literal["active", "suspended"]

UPDATE_PROVIDER_BODY_STATUS_VALUES: set[UpdateProviderBodyStatus] = {
    "active",
    "suspended",
}


def check_update_provider_body_status(value: str) -> UpdateProviderBodyStatus:
    if value in UPDATE_PROVIDER_BODY_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_PROVIDER_BODY_STATUS_VALUES!r}"
    )
