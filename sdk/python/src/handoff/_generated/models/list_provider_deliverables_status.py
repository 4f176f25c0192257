from typing import Literal

ListProviderDeliverablesStatus = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

LIST_PROVIDER_DELIVERABLES_STATUS_VALUES: set[ListProviderDeliverablesStatus] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_list_provider_deliverables_status(
    value: str,
) -> ListProviderDeliverablesStatus:
    if value in LIST_PROVIDER_DELIVERABLES_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_DELIVERABLES_STATUS_VALUES!r}"
    )
