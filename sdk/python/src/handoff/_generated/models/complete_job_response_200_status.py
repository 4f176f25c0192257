from typing import Literal

CompleteJobResponse200Status = Literal["active", "cancelled", "completed"]

COMPLETE_JOB_RESPONSE_200_STATUS_VALUES: set[CompleteJobResponse200Status] = {
    "active",
    "cancelled",
    "completed",
}


def check_complete_job_response_200_status(value: str) -> CompleteJobResponse200Status:
    if value in COMPLETE_JOB_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMPLETE_JOB_RESPONSE_200_STATUS_VALUES!r}"
    )
