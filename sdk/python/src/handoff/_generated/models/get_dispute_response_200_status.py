from typing import Literal

GetDisputeResponse200Status = Literal["open", "resolved", "under_review", "withdrawn"]

GET_DISPUTE_RESPONSE_200_STATUS_VALUES: set[GetDisputeResponse200Status] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_get_dispute_response_200_status(value: str) -> GetDisputeResponse200Status:
    if value in GET_DISPUTE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_RESPONSE_200_STATUS_VALUES!r}"
    )
