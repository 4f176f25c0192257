from typing import Literal

ListProviderRequestsResponse200DataItemRelation = Literal[
    "engaged", "marketplace", "routed"
]

LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_RELATION_VALUES: set[
    ListProviderRequestsResponse200DataItemRelation
] = {
    "engaged",
    "marketplace",
    "routed",
}


def check_list_provider_requests_response_200_data_item_relation(
    value: str,
) -> ListProviderRequestsResponse200DataItemRelation:
    if value in LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_RELATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_RELATION_VALUES!r}"
    )
