from typing import Literal

WithdrawDisputeResponse200ResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

WITHDRAW_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    WithdrawDisputeResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_withdraw_dispute_response_200_resolution_type_0_outcome(
    value: str,
) -> WithdrawDisputeResponse200ResolutionType0Outcome:
    if value in WITHDRAW_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WITHDRAW_DISPUTE_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
