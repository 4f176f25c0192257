from typing import Literal

RevokeApiKeyResponse200Status = Literal["active", "expired", "revoked"]

REVOKE_API_KEY_RESPONSE_200_STATUS_VALUES: set[RevokeApiKeyResponse200Status] = {
    "active",
    "expired",
    "revoked",
}


def check_revoke_api_key_response_200_status(
    value: str,
) -> RevokeApiKeyResponse200Status:
    if value in REVOKE_API_KEY_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVOKE_API_KEY_RESPONSE_200_STATUS_VALUES!r}"
    )
