from typing import Literal

RevokeProviderSessionResponse200EndedByType0 = Literal[
    "expiry", "provider", "staff", "suspension"
]

REVOKE_PROVIDER_SESSION_RESPONSE_200_ENDED_BY_TYPE_0_VALUES: set[
    RevokeProviderSessionResponse200EndedByType0
] = {
    "expiry",
    "provider",
    "staff",
    "suspension",
}


def check_revoke_provider_session_response_200_ended_by_type_0(
    value: str,
) -> RevokeProviderSessionResponse200EndedByType0:
    if value in REVOKE_PROVIDER_SESSION_RESPONSE_200_ENDED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REVOKE_PROVIDER_SESSION_RESPONSE_200_ENDED_BY_TYPE_0_VALUES!r}"
    )
