from typing import Literal

ListProviderProposalsResponse200DataItemStatus = Literal[
    "accepted", "declined", "expired", "submitted", "withdrawn"
]

LIST_PROVIDER_PROPOSALS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderProposalsResponse200DataItemStatus
] = {
    "accepted",
    "declined",
    "expired",
    "submitted",
    "withdrawn",
}


def check_list_provider_proposals_response_200_data_item_status(
    value: str,
) -> ListProviderProposalsResponse200DataItemStatus:
    if value in LIST_PROVIDER_PROPOSALS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_PROPOSALS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
