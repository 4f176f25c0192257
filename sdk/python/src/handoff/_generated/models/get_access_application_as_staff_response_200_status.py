from typing import Literal

GetAccessApplicationAsStaffResponse200Status = Literal[
    "approved", "rejected", "submitted"
]

GET_ACCESS_APPLICATION_AS_STAFF_RESPONSE_200_STATUS_VALUES: set[
    GetAccessApplicationAsStaffResponse200Status
] = {
    "approved",
    "rejected",
    "submitted",
}


def check_get_access_application_as_staff_response_200_status(
    value: str,
) -> GetAccessApplicationAsStaffResponse200Status:
    if value in GET_ACCESS_APPLICATION_AS_STAFF_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_ACCESS_APPLICATION_AS_STAFF_RESPONSE_200_STATUS_VALUES!r}"
    )
