from typing import Literal

ListAccessApplicationsStatus = Literal["approved", "rejected", "submitted"]

LIST_ACCESS_APPLICATIONS_STATUS_VALUES: set[ListAccessApplicationsStatus] = {
    "approved",
    "rejected",
    "submitted",
}


def check_list_access_applications_status(value: str) -> ListAccessApplicationsStatus:
    if value in LIST_ACCESS_APPLICATIONS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_ACCESS_APPLICATIONS_STATUS_VALUES!r}"
    )
