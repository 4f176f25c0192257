from typing import Literal

ListProviderSessionsResponse200DataItemEndedByType0 = Literal[
    "expiry", "provider", "staff", "suspension"
]

LIST_PROVIDER_SESSIONS_RESPONSE_200_DATA_ITEM_ENDED_BY_TYPE_0_VALUES: set[
    ListProviderSessionsResponse200DataItemEndedByType0
] = {
    "expiry",
    "provider",
    "staff",
    "suspension",
}


def check_list_provider_sessions_response_200_data_item_ended_by_type_0(
    value: str,
) -> ListProviderSessionsResponse200DataItemEndedByType0:
    if value in LIST_PROVIDER_SESSIONS_RESPONSE_200_DATA_ITEM_ENDED_BY_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_SESSIONS_RESPONSE_200_DATA_ITEM_ENDED_BY_TYPE_0_VALUES!r}"
    )
