from typing import Literal

GetReadinessResponse503Status = Literal["not_ready", "ready"]

GET_READINESS_RESPONSE_503_STATUS_VALUES: set[GetReadinessResponse503Status] = {
    "not_ready",
    "ready",
}


def check_get_readiness_response_503_status(
    value: str,
) -> GetReadinessResponse503Status:
    if value in GET_READINESS_RESPONSE_503_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_READINESS_RESPONSE_503_STATUS_VALUES!r}"
    )
