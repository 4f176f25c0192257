from typing import Literal

ListProviderJobsStatus = Literal["active", "cancelled", "completed"]

LIST_PROVIDER_JOBS_STATUS_VALUES: set[ListProviderJobsStatus] = {
    "active",
    "cancelled",
    "completed",
}


def check_list_provider_jobs_status(value: str) -> ListProviderJobsStatus:
    if value in LIST_PROVIDER_JOBS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_JOBS_STATUS_VALUES!r}"
    )
