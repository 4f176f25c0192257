from typing import Literal

ListDeliverablesStatus = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

LIST_DELIVERABLES_STATUS_VALUES: set[ListDeliverablesStatus] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_list_deliverables_status(value: str) -> ListDeliverablesStatus:
    if value in LIST_DELIVERABLES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DELIVERABLES_STATUS_VALUES!r}"
    )
