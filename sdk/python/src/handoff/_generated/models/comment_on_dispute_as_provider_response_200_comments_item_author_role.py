from typing import Literal

CommentOnDisputeAsProviderResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    CommentOnDisputeAsProviderResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_comment_on_dispute_as_provider_response_200_comments_item_author_role(
    value: str,
) -> CommentOnDisputeAsProviderResponse200CommentsItemAuthorRole:
    if (
        value
        in COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_PROVIDER_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
