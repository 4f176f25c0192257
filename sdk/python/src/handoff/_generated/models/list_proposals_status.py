from typing import Literal

ListProposalsStatus = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

LIST_PROPOSALS_STATUS_VALUES: set[ListProposalsStatus] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_list_proposals_status(value: str) -> ListProposalsStatus:
    if value in LIST_PROPOSALS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROPOSALS_STATUS_VALUES!r}"
    )
