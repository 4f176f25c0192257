from typing import Literal

GetProviderProposalResponse200Status = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

GET_PROVIDER_PROPOSAL_RESPONSE_200_STATUS_VALUES: set[
    GetProviderProposalResponse200Status
] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_get_provider_proposal_response_200_status(
    value: str,
) -> GetProviderProposalResponse200Status:
    if value in GET_PROVIDER_PROPOSAL_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_PROPOSAL_RESPONSE_200_STATUS_VALUES!r}"
    )
