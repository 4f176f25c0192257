from typing import Literal

GetProviderJobResponse200Status = Literal["active", "cancelled", "completed"]

GET_PROVIDER_JOB_RESPONSE_200_STATUS_VALUES: set[GetProviderJobResponse200Status] = {
    "active",
    "cancelled",
    "completed",
}


def check_get_provider_job_response_200_status(
    value: str,
) -> GetProviderJobResponse200Status:
    if value in GET_PROVIDER_JOB_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_JOB_RESPONSE_200_STATUS_VALUES!r}"
    )
