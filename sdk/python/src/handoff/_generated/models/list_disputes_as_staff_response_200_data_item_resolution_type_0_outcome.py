from typing import Literal

ListDisputesAsStaffResponse200DataItemResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    ListDisputesAsStaffResponse200DataItemResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_list_disputes_as_staff_response_200_data_item_resolution_type_0_outcome(
    value: str,
) -> ListDisputesAsStaffResponse200DataItemResolutionType0Outcome:
    if (
        value
        in LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_RESOLUTION_TYPE_0_OUTCOME_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_AS_STAFF_RESPONSE_200_DATA_ITEM_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
