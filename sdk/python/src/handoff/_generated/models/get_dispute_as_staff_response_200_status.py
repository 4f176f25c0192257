from typing import Literal

GetDisputeAsStaffResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

GET_DISPUTE_AS_STAFF_RESPONSE_200_STATUS_VALUES: set[
    GetDisputeAsStaffResponse200Status
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_get_dispute_as_staff_response_200_status(
    value: str,
) -> GetDisputeAsStaffResponse200Status:
    if value in GET_DISPUTE_AS_STAFF_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DISPUTE_AS_STAFF_RESPONSE_200_STATUS_VALUES!r}"
    )
