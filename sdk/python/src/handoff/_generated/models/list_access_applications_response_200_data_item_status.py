from typing import Literal

ListAccessApplicationsResponse200DataItemStatus = Literal[
    "approved", "rejected", "submitted"
]

LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListAccessApplicationsResponse200DataItemStatus
] = {
    "approved",
    "rejected",
    "submitted",
}


def check_list_access_applications_response_200_data_item_status(
    value: str,
) -> ListAccessApplicationsResponse200DataItemStatus:
    if value in LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
