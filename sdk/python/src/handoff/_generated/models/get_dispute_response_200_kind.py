from typing import Literal

GetDisputeResponse200Kind = Literal["dispute", "refund"]

GET_DISPUTE_RESPONSE_200_KIND_VALUES: set[GetDisputeResponse200Kind] = {
    "dispute",
    "refund",
}


def check_get_dispute_response_200_kind(value: str) -> GetDisputeResponse200Kind:
    if value in GET_DISPUTE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_RESPONSE_200_KIND_VALUES!r}"
    )
