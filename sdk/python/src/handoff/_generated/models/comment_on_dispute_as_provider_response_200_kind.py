from typing import Literal

CommentOnDisputeAsProviderResponse200Kind = Literal["dispute", "refund"]

COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_KIND_VALUES: set[
    CommentOnDisputeAsProviderResponse200Kind
] = {
    "dispute",
    "refund",
}


def check_comment_on_dispute_as_provider_response_200_kind(
    value: str,
) -> CommentOnDisputeAsProviderResponse200Kind:
    if value in COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_KIND_VALUES!r}"
    )
