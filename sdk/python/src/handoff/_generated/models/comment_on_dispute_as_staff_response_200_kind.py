from typing import Literal

CommentOnDisputeAsStaffResponse200Kind = Literal["dispute", "refund"]

COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_KIND_VALUES: set[
    CommentOnDisputeAsStaffResponse200Kind
] = {
    "dispute",
    "refund",
}


def check_comment_on_dispute_as_staff_response_200_kind(
    value: str,
) -> CommentOnDisputeAsStaffResponse200Kind:
    if value in COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_KIND_VALUES!r}"
    )
