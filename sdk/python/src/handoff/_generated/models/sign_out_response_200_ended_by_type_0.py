from typing import Literal

SignOutResponse200EndedByType0 = Literal["expiry", "provider", "staff", "suspension"]

SIGN_OUT_RESPONSE_200_ENDED_BY_TYPE_0_VALUES: set[SignOutResponse200EndedByType0] = {
    "expiry",
    "provider",
    "staff",
    "suspension",
}


def check_sign_out_response_200_ended_by_type_0(
    value: str,
) -> SignOutResponse200EndedByType0:
    if value in SIGN_OUT_RESPONSE_200_ENDED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SIGN_OUT_RESPONSE_200_ENDED_BY_TYPE_0_VALUES!r}"
    )
