from typing import Literal

CommentOnDisputeAsStaffResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_STATUS_VALUES: set[
    CommentOnDisputeAsStaffResponse200Status
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_comment_on_dispute_as_staff_response_200_status(
    value: str,
) -> CommentOnDisputeAsStaffResponse200Status:
    if value in COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_STATUS_VALUES!r}"
    )
