from typing import Literal

CreateProviderResponse201Status = Literal["active", "suspended"]

CREATE_PROVIDER_RESPONSE_201_STATUS_VALUES: set[CreateProviderResponse201Status] = {
    "active",
    "suspended",
}


def check_create_provider_response_201_status(
    value: str,
) -> CreateProviderResponse201Status:
    if value in CREATE_PROVIDER_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_PROVIDER_RESPONSE_201_STATUS_VALUES!r}"
    )
