from typing import Literal

ListProposalsResponse200DataItemStatus = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

LIST_PROPOSALS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProposalsResponse200DataItemStatus
] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_list_proposals_response_200_data_item_status(
    value: str,
) -> ListProposalsResponse200DataItemStatus:
    if value in LIST_PROPOSALS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROPOSALS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
