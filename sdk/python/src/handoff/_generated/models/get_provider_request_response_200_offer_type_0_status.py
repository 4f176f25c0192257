from typing import Literal

GetProviderRequestResponse200OfferType0Status = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

GET_PROVIDER_REQUEST_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES: set[
    GetProviderRequestResponse200OfferType0Status
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_get_provider_request_response_200_offer_type_0_status(
    value: str,
) -> GetProviderRequestResponse200OfferType0Status:
    if value in GET_PROVIDER_REQUEST_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_REQUEST_RESPONSE_200_OFFER_TYPE_0_STATUS_VALUES!r}"
    )
