from typing import Literal

WithdrawDisputeResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

WITHDRAW_DISPUTE_RESPONSE_200_STATUS_VALUES: set[WithdrawDisputeResponse200Status] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_withdraw_dispute_response_200_status(
    value: str,
) -> WithdrawDisputeResponse200Status:
    if value in WITHDRAW_DISPUTE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WITHDRAW_DISPUTE_RESPONSE_200_STATUS_VALUES!r}"
    )
