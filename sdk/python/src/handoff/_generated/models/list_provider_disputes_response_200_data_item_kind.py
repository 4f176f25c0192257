from typing import Literal

ListProviderDisputesResponse200DataItemKind = Literal["dispute", "refund"]

LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_KIND_VALUES: set[
    ListProviderDisputesResponse200DataItemKind
] = {
    "dispute",
    "refund",
}


def check_list_provider_disputes_response_200_data_item_kind(
    value: str,
) -> ListProviderDisputesResponse200DataItemKind:
    if value in LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_KIND_VALUES!r}"
    )
