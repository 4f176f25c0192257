from typing import Literal

ListDisputesStatus = Literal["open", "resolved", "under_review", "withdrawn"]

LIST_DISPUTES_STATUS_VALUES: set[ListDisputesStatus] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_list_disputes_status(value: str) -> ListDisputesStatus:
    if value in LIST_DISPUTES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_STATUS_VALUES!r}"
    )
