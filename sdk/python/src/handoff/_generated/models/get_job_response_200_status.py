from typing import Literal

GetJobResponse200Status = Literal["active", "cancelled", "completed"]

GET_JOB_RESPONSE_200_STATUS_VALUES: set[GetJobResponse200Status] = {
    "active",
    "cancelled",
    "completed",
}


def check_get_job_response_200_status(value: str) -> GetJobResponse200Status:
    if value in GET_JOB_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_JOB_RESPONSE_200_STATUS_VALUES!r}"
    )
