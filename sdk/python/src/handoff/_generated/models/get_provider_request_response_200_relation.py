from typing import Literal

GetProviderRequestResponse200Relation = Literal["engaged", "marketplace", "routed"]

GET_PROVIDER_REQUEST_RESPONSE_200_RELATION_VALUES: set[
    GetProviderRequestResponse200Relation
] = {
    "engaged",
    "marketplace",
    "routed",
}


def check_get_provider_request_response_200_relation(
    value: str,
) -> GetProviderRequestResponse200Relation:
    if value in GET_PROVIDER_REQUEST_RESPONSE_200_RELATION_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_REQUEST_RESPONSE_200_RELATION_VALUES!r}"
    )
