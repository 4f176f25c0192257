from typing import Literal

ApproveAccessApplicationResponse200Status = Literal["approved", "rejected", "submitted"]

APPROVE_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES: set[
    ApproveAccessApplicationResponse200Status
] = {
    "approved",
    "rejected",
    "submitted",
}


def check_approve_access_application_response_200_status(
    value: str,
) -> ApproveAccessApplicationResponse200Status:
    if value in APPROVE_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_ACCESS_APPLICATION_RESPONSE_200_STATUS_VALUES!r}"
    )
