from typing import Literal

RejectAccessApplicationResponse200Status = Literal["approved", "rejected", "submitted"]

REJECT_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES: set[
    RejectAccessApplicationResponse200Status
] = {
    "approved",
    "rejected",
    "submitted",
}


def check_reject_access_application_response_200_status(
    value: str,
) -> RejectAccessApplicationResponse200Status:
    if value in REJECT_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REJECT_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES!r}"
    )
