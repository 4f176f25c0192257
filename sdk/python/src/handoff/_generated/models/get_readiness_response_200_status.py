from typing import Literal

GetReadinessResponse200Status = Literal["not_ready", "ready"]

GET_READINESS_RESPONSE_200_STATUS_VALUES: set[GetReadinessResponse200Status] = {
    "not_ready",
    "ready",
}


def check_get_readiness_response_200_status(
    value: str,
) -> GetReadinessResponse200Status:
    if value in GET_READINESS_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_READINESS_RESPONSE_200_STATUS_VALUES!r}"
    )
