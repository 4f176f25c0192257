from typing import Literal

ListJobsResponse200DataItemStatus = Literal["active", "cancelled", "completed"]

LIST_JOBS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListJobsResponse200DataItemStatus
] = {
    "active",
    "cancelled",
    "completed",
}


def check_list_jobs_response_200_data_item_status(
    value: str,
) -> ListJobsResponse200DataItemStatus:
    if value in LIST_JOBS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_JOBS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
