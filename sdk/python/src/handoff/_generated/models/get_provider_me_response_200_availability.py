from typing import Literal

GetProviderMeResponse200Availability = Literal["available", "away"]

GET_PROVIDER_ME_RESPONSE_200_AVAILABILITY_VALUES: set[
    GetProviderMeResponse200Availability
] = {
    "available",
    "away",
}


def check_get_provider_me_response_200_availability(
    value: str,
) -> GetProviderMeResponse200Availability:
    if value in GET_PROVIDER_ME_RESPONSE_200_AVAILABILITY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_ME_RESPONSE_200_AVAILABILITY_VALUES!r}"
    )
