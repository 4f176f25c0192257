from typing import Literal

ListDisputesAsStaffStatus = Literal["open", "resolved", "under_review", "withdrawn"]

LIST_DISPUTES_AS_STAFF_STATUS_VALUES: set[ListDisputesAsStaffStatus] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_list_disputes_as_staff_status(value: str) -> ListDisputesAsStaffStatus:
    if value in LIST_DISPUTES_AS_STAFF_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_AS_STAFF_STATUS_VALUES!r}"
    )
