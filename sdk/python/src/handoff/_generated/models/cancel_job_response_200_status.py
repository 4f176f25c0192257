from typing import Literal

CancelJobResponse200Status = Literal["active", "cancelled", "completed"]

CANCEL_JOB_RESPONSE_200_STATUS_VALUES: set[CancelJobResponse200Status] = {
    "active",
    "cancelled",
    "completed",
}


def check_cancel_job_response_200_status(value: str) -> CancelJobResponse200Status:
    if value in CANCEL_JOB_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_JOB_RESPONSE_200_STATUS_VALUES!r}"
    )
