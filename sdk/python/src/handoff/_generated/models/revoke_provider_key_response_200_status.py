from typing import Literal

RevokeProviderKeyResponse200Status = Literal["active", "suspended"]

REVOKE_PROVIDER_KEY_RESPONSE_200_STATUS_VALUES: set[
    RevokeProviderKeyResponse200Status
] = {
    "active",
    "suspended",
}


def check_revoke_provider_key_response_200_status(
    value: str,
) -> RevokeProviderKeyResponse200Status:
    if value in REVOKE_PROVIDER_KEY_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVOKE_PROVIDER_KEY_RESPONSE_200_STATUS_VALUES!r}"
    )
