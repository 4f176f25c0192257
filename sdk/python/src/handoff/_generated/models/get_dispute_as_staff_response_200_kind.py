from typing import Literal

GetDisputeAsStaffResponse200Kind = Literal["dispute", "refund"]

GET_DISPUTE_AS_STAFF_RESPONSE_200_KIND_VALUES: set[GetDisputeAsStaffResponse200Kind] = {
    "dispute",
    "refund",
}


def check_get_dispute_as_staff_response_200_kind(
    value: str,
) -> GetDisputeAsStaffResponse200Kind:
    if value in GET_DISPUTE_AS_STAFF_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_AS_STAFF_RESPONSE_200_KIND_VALUES!r}"
    )
