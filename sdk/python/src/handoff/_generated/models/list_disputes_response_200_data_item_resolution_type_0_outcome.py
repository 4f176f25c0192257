from typing import Literal

ListDisputesResponse200DataItemResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

LIST_DISPUTES_RESPONSE_200_DATA_ITEM_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    ListDisputesResponse200DataItemResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_list_disputes_response_200_data_item_resolution_type_0_outcome(
    value: str,
) -> ListDisputesResponse200DataItemResolutionType0Outcome:
    if value in LIST_DISPUTES_RESPONSE_200_DATA_ITEM_RESOLUTION_TYPE_0_OUTCOME_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_RESPONSE_200_DATA_ITEM_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
