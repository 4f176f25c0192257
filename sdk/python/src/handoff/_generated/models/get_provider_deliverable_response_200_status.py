from typing import Literal

GetProviderDeliverableResponse200Status = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

GET_PROVIDER_DELIVERABLE_RESPONSE_200_STATUS_VALUES: set[
    GetProviderDeliverableResponse200Status
] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_get_provider_deliverable_response_200_status(
    value: str,
) -> GetProviderDeliverableResponse200Status:
    if value in GET_PROVIDER_DELIVERABLE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_DELIVERABLE_RESPONSE_200_STATUS_VALUES!r}"
    )
