from typing import Literal

AcceptProposalResponse200ProposalStatus = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

ACCEPT_PROPOSAL_RESPONSE_200_PROPOSAL_STATUS_VALUES: set[
    AcceptProposalResponse200ProposalStatus
] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_accept_proposal_response_200_proposal_status(
    value: str,
) -> AcceptProposalResponse200ProposalStatus:
    if value in ACCEPT_PROPOSAL_RESPONSE_200_PROPOSAL_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCEPT_PROPOSAL_RESPONSE_200_PROPOSAL_STATUS_VALUES!r}"
    )
