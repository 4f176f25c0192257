from typing import Literal

WithdrawDisputeResponse200Kind = Literal["dispute", "refund"]

WITHDRAW_DISPUTE_RESPONSE_200_KIND_VALUES: set[WithdrawDisputeResponse200Kind] = {
    "dispute",
    "refund",
}


def check_withdraw_dispute_response_200_kind(
    value: str,
) -> WithdrawDisputeResponse200Kind:
    if value in WITHDRAW_DISPUTE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WITHDRAW_DISPUTE_RESPONSE_200_KIND_VALUES!r}"
    )
