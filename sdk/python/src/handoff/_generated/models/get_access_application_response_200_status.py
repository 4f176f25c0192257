from typing import Literal

GetAccessApplicationResponse200Status = Literal["approved", "rejected", "submitted"]

GET_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES: set[
    GetAccessApplicationResponse200Status
] = {
    "approved",
    "rejected",
    "submitted",
}


def check_get_access_application_response_200_status(
    value: str,
) -> GetAccessApplicationResponse200Status:
    if value in GET_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES!r}"
    )
