from typing import Literal

GetProposalResponse200Status = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

GET_PROPOSAL_RESPONSE_200_STATUS_VALUES: set[GetProposalResponse200Status] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_get_proposal_response_200_status(value: str) -> GetProposalResponse200Status:
    if value in GET_PROPOSAL_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROPOSAL_RESPONSE_200_STATUS_VALUES!r}"
    )
