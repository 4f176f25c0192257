from typing import Literal

ListProviderDisputesStatus = Literal["open", "resolved", "under_review", "withdrawn"]

LIST_PROVIDER_DISPUTES_STATUS_VALUES: set[ListProviderDisputesStatus] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_list_provider_disputes_status(value: str) -> ListProviderDisputesStatus:
    if value in LIST_PROVIDER_DISPUTES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_DISPUTES_STATUS_VALUES!r}"
    )
