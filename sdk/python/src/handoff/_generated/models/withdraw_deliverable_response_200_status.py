from typing import Literal

WithdrawDeliverableResponse200Status = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

WITHDRAW_DELIVERABLE_RESPONSE_200_STATUS_VALUES: set[
    WithdrawDeliverableResponse200Status
] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_withdraw_deliverable_response_200_status(
    value: str,
) -> WithdrawDeliverableResponse200Status:
    if value in WITHDRAW_DELIVERABLE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {WITHDRAW_DELIVERABLE_RESPONSE_200_STATUS_VALUES!r}"
    )
