from typing import Literal

SignOutResponse200Status = Literal["active", "ended"]

SIGN_OUT_RESPONSE_200_STATUS_VALUES: set[SignOutResponse200Status] = {
    "active",
    "ended",
}


def check_sign_out_response_200_status(value: str) -> SignOutResponse200Status:
    if value in SIGN_OUT_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SIGN_OUT_RESPONSE_200_STATUS_VALUES!r}"
    )
