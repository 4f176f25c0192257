from typing import Literal

GetStaffHealthResponse200Status = Literal["not_ready", "ready"]

GET_STAFF_HEALTH_RESPONSE_200_STATUS_VALUES: set[GetStaffHealthResponse200Status] = {
    "not_ready",
    "ready",
}


def check_get_staff_health_response_200_status(
    value: str,
) -> GetStaffHealthResponse200Status:
    if value in GET_STAFF_HEALTH_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_STAFF_HEALTH_RESPONSE_200_STATUS_VALUES!r}"
    )
