from typing import Literal

ListMilestonesResponse200DataItemApprovedByType0 = Literal["customer", "deadline"]

LIST_MILESTONES_RESPONSE_200_DATA_ITEM_APPROVED_BY_TYPE_0_VALUES: set[
    ListMilestonesResponse200DataItemApprovedByType0
] = {
    "customer",
    "deadline",
}


def check_list_milestones_response_200_data_item_approved_by_type_0(
    value: str,
) -> ListMilestonesResponse200DataItemApprovedByType0:
    if value in LIST_MILESTONES_RESPONSE_200_DATA_ITEM_APPROVED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_MILESTONES_RESPONSE_200_DATA_ITEM_APPROVED_BY_TYPE_0_VALUES!r}"
    )
