from typing import Literal

ListDisputesResponse200DataItemKind = Literal["dispute", "refund"]

LIST_DISPUTES_RESPONSE_200_DATA_ITEM_KIND_VALUES: set[
    ListDisputesResponse200DataItemKind
] = {
    "dispute",
    "refund",
}


def check_list_disputes_response_200_data_item_kind(
    value: str,
) -> ListDisputesResponse200DataItemKind:
    if value in LIST_DISPUTES_RESPONSE_200_DATA_ITEM_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_RESPONSE_200_DATA_ITEM_KIND_VALUES!r}"
    )
