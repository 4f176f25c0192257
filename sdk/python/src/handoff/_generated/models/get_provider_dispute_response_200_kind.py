from typing import Literal

GetProviderDisputeResponse200Kind = Literal["dispute", "refund"]

GET_PROVIDER_DISPUTE_RESPONSE_200_KIND_VALUES: set[
    GetProviderDisputeResponse200Kind
] = {
    "dispute",
    "refund",
}


def check_get_provider_dispute_response_200_kind(
    value: str,
) -> GetProviderDisputeResponse200Kind:
    if value in GET_PROVIDER_DISPUTE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_DISPUTE_RESPONSE_200_KIND_VALUES!r}"
    )
