from typing import Literal

RevokeProviderKeyResponse200Availability = Literal["available", "away"]

REVOKE_PROVIDER_KEY_RESPONSE_200_AVAILABILITY_VALUES: set[
    RevokeProviderKeyResponse200Availability
] = {
    "available",
    "away",
}


def check_revoke_provider_key_response_200_availability(
    value: str,
) -> RevokeProviderKeyResponse200Availability:
    if value in REVOKE_PROVIDER_KEY_RESPONSE_200_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVOKE_PROVIDER_KEY_RESPONSE_200_AVAILABILITY_VALUES!r}"
    )
