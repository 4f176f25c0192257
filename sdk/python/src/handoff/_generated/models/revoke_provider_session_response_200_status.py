from typing import Literal

RevokeProviderSessionResponse200Status = Literal["active", "ended"]

REVOKE_PROVIDER_SESSION_RESPONSE_200_STATUS_VALUES: set[
    RevokeProviderSessionResponse200Status
] = {
    "active",
    "ended",
}


def check_revoke_provider_session_response_200_status(
    value: str,
) -> RevokeProviderSessionResponse200Status:
    if value in REVOKE_PROVIDER_SESSION_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVOKE_PROVIDER_SESSION_RESPONSE_200_STATUS_VALUES!r}"
    )
