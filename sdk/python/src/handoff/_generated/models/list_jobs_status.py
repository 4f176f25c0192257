from typing import Literal

ListJobsStatus = Literal["active", "cancelled", "completed"]

LIST_JOBS_STATUS_VALUES: set[ListJobsStatus] = {
    "active",
    "cancelled",
    "completed",
}


def check_list_jobs_status(value: str) -> ListJobsStatus:
    if value in LIST_JOBS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_JOBS_STATUS_VALUES!r}"
    )
