from typing import Literal

CreateDeliverableResponse201Status = Literal[
    "accepted", "revision_requested", "submitted", "withdrawn"
]

CREATE_DELIVERABLE_RESPONSE_201_STATUS_VALUES: set[
    CreateDeliverableResponse201Status
] = {
    "accepted",
    "revision_requested",
    "submitted",
    "withdrawn",
}


def check_create_deliverable_response_201_status(
    value: str,
) -> CreateDeliverableResponse201Status:
    if value in CREATE_DELIVERABLE_RESPONSE_201_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_DELIVERABLE_RESPONSE_201_STATUS_VALUES!r}"
    )
