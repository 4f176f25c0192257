from typing import Literal

SubmitAccessApplicationResponse201Status = Literal["approved", "rejected", "submitted"]

SUBMIT_ACCESS_APPLICATION_RESPONSE_201_STATUS_VALUES: set[
    SubmitAccessApplicationResponse201Status
] = {
    "approved",
    "rejected",
    "submitted",
}


def check_submit_access_application_response_201_status(
    value: str,
) -> SubmitAccessApplicationResponse201Status:
    if value in SUBMIT_ACCESS_APPLICATION_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUBMIT_ACCESS_APPLICATION_RESPONSE_201_STATUS_VALUES!r}"
    )
