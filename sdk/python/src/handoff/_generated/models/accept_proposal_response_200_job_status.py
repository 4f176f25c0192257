from typing import Literal

AcceptProposalResponse200JobStatus = Literal["active", "cancelled", "completed"]

ACCEPT_PROPOSAL_RESPONSE_200_JOB_STATUS_VALUES: set[
    AcceptProposalResponse200JobStatus
] = {
    "active",
    "cancelled",
    "completed",
}


def check_accept_proposal_response_200_job_status(
    value: str,
) -> AcceptProposalResponse200JobStatus:
    if value in ACCEPT_PROPOSAL_RESPONSE_200_JOB_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ACCEPT_PROPOSAL_RESPONSE_200_JOB_STATUS_VALUES!r}"
    )
