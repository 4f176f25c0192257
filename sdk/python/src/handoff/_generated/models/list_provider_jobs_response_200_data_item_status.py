from typing import Literal

ListProviderJobsResponse200DataItemStatus = Literal["active", "cancelled", "completed"]

LIST_PROVIDER_JOBS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListProviderJobsResponse200DataItemStatus
] = {
    "active",
    "cancelled",
    "completed",
}


def check_list_provider_jobs_response_200_data_item_status(
    value: str,
) -> ListProviderJobsResponse200DataItemStatus:
    if value in LIST_PROVIDER_JOBS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_JOBS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
