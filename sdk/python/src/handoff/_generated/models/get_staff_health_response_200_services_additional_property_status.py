from typing import Literal

GetStaffHealthResponse200ServicesAdditionalPropertyStatus = Literal["down", "up"]

GET_STAFF_HEALTH_RESPONSE_200_SERVICES_ADDITIONAL_PROPERTY_STATUS_VALUES: set[
    GetStaffHealthResponse200ServicesAdditionalPropertyStatus
] = {
    "down",
    "up",
}


def check_get_staff_health_response_200_services_additional_property_status(
    value: str,
) -> GetStaffHealthResponse200ServicesAdditionalPropertyStatus:
    if (
        value
        in GET_STAFF_HEALTH_RESPONSE_200_SERVICES_ADDITIONAL_PROPERTY_STATUS_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_STAFF_HEALTH_RESPONSE_200_SERVICES_ADDITIONAL_PROPERTY_STATUS_VALUES!r}"
    )
