from typing import Literal

ListDeliverablesResponse200DataItemStatus = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

LIST_DELIVERABLES_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListDeliverablesResponse200DataItemStatus
] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_list_deliverables_response_200_data_item_status(
    value: str,
) -> ListDeliverablesResponse200DataItemStatus:
    if value in LIST_DELIVERABLES_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DELIVERABLES_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
