from typing import Literal

ListProviderSessionsStatus = Literal["active", "ended"]

LIST_PROVIDER_SESSIONS_STATUS_VALUES: set[ListProviderSessionsStatus] = {
    "active",
    "ended",
}


def check_list_provider_sessions_status(value: str) -> ListProviderSessionsStatus:
    if value in LIST_PROVIDER_SESSIONS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_SESSIONS_STATUS_VALUES!r}"
    )
