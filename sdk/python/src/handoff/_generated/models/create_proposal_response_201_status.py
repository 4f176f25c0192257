from typing import Literal

CreateProposalResponse201Status = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

CREATE_PROPOSAL_RESPONSE_201_STATUS_VALUES: set[CreateProposalResponse201Status] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_create_proposal_response_201_status(
    value: str,
) -> CreateProposalResponse201Status:
    if value in CREATE_PROPOSAL_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_PROPOSAL_RESPONSE_201_STATUS_VALUES!r}"
    )
