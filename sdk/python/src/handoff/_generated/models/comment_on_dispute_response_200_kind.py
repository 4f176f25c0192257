from typing import Literal

CommentOnDisputeResponse200Kind = Literal["dispute", "refund"]

COMMENT_ON_DISPUTE_RESPONSE_200_KIND_VALUES: set[CommentOnDisputeResponse200Kind] = {
    "dispute",
    "refund",
}


def check_comment_on_dispute_response_200_kind(
    value: str,
) -> CommentOnDisputeResponse200Kind:
    if value in COMMENT_ON_DISPUTE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_RESPONSE_200_KIND_VALUES!r}"
    )
