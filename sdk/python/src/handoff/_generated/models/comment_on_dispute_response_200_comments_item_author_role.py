from typing import Literal

CommentOnDisputeResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

COMMENT_ON_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    CommentOnDisputeResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_comment_on_dispute_response_200_comments_item_author_role(
    value: str,
) -> CommentOnDisputeResponse200CommentsItemAuthorRole:
    if value in COMMENT_ON_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
