from typing import Literal

GetDeliverableResponse200Status = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

GET_DELIVERABLE_RESPONSE_200_STATUS_VALUES: set[GetDeliverableResponse200Status] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_get_deliverable_response_200_status(
    value: str,
) -> GetDeliverableResponse200Status:
    if value in GET_DELIVERABLE_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DELIVERABLE_RESPONSE_200_STATUS_VALUES!r}"
    )
