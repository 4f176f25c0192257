from typing import Literal

ListProvidersStatus = Literal["active", "suspended"]

LIST_PROVIDERS_STATUS_VALUES: set[ListProvidersStatus] = {
    "active",
    "suspended",
}


def check_list_providers_status(value: str) -> ListProvidersStatus:
    if value in LIST_PROVIDERS_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDERS_STATUS_VALUES!r}"
    )
