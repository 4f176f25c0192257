from typing import Literal

CommentOnDisputeAsProviderResponse200Status = Literal[
    "open", "resolved", "under_review", "withdrawn"
]

COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_STATUS_VALUES: set[
    CommentOnDisputeAsProviderResponse200Status
] = {
    "open",
    "resolved",
    "under_review",
    "withdrawn",
}


def check_comment_on_dispute_as_provider_response_200_status(
    value: str,
) -> CommentOnDisputeAsProviderResponse200Status:
    if value in COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_STATUS_VALUES!r}"
    )
