from typing import Literal

GetProviderDisputeResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

GET_PROVIDER_DISPUTE_RESPONSE_200_STATUS_VALUES: set[
    GetProviderDisputeResponse200Status
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_get_provider_dispute_response_200_status(
    value: str,
) -> GetProviderDisputeResponse200Status:
    if value in GET_PROVIDER_DISPUTE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_DISPUTE_RESPONSE_200_STATUS_VALUES!r}"
    )
