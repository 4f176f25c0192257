from typing import Literal

CommentOnDisputeAsProviderResponse200ResolutionType0Outcome = Literal[
    "customer", "provider", "split"
]

COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES: set[
    CommentOnDisputeAsProviderResponse200ResolutionType0Outcome
] = {
    "customer",
    "provider",
    "split",
}


def check_comment_on_dispute_as_provider_response_200_resolution_type_0_outcome(
    value: str,
) -> CommentOnDisputeAsProviderResponse200ResolutionType0Outcome:
    if (
        value
        in COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_RESOLUTION_TYPE_0_OUTCOME_VALUES!r}"
    )
