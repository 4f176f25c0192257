from typing import Literal

ListProviderRequestsResponse200DataItemOfferType0Status = Literal[
    "accepted", "declined", "lapsed", "pending", "withdrawn"
]

LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_OFFER_TYPE_0_STATUS_VALUES: set[
    ListProviderRequestsResponse200DataItemOfferType0Status
] = {
    "accepted",
    "declined",
    "lapsed",
    "pending",
    "withdrawn",
}


def check_list_provider_requests_response_200_data_item_offer_type_0_status(
    value: str,
) -> ListProviderRequestsResponse200DataItemOfferType0Status:
    if (
        value
        in LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_OFFER_TYPE_0_STATUS_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUESTS_RESPONSE_200_DATA_ITEM_OFFER_TYPE_0_STATUS_VALUES!r}"
    )
