from typing import Literal

WithdrawProposalResponse200Status = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

WITHDRAW_PROPOSAL_RESPONSE_200_STATUS_VALUES: set[WithdrawProposalResponse200Status] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_withdraw_proposal_response_200_status(
    value: str,
) -> WithdrawProposalResponse200Status:
    if value in WITHDRAW_PROPOSAL_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WITHDRAW_PROPOSAL_RESPONSE_200_STATUS_VALUES!r}"
    )
