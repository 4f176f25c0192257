from typing import Literal

DeclineProposalResponse200Status = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

DECLINE_PROPOSAL_RESPONSE_200_STATUS_VALUES: set[DeclineProposalResponse200Status] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_decline_proposal_response_200_status(
    value: str,
) -> DeclineProposalResponse200Status:
    if value in DECLINE_PROPOSAL_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DECLINE_PROPOSAL_RESPONSE_200_STATUS_VALUES!r}"
    )
