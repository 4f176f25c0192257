from typing import Literal

ListProviderProposalsStatus = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

LIST_PROVIDER_PROPOSALS_STATUS_VALUES: set[ListProviderProposalsStatus] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_list_provider_proposals_status(value: str) -> ListProviderProposalsStatus:
    if value in LIST_PROVIDER_PROPOSALS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_PROPOSALS_STATUS_VALUES!r}"
    )
