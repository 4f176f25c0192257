from typing import Literal

CommentOnDisputeAsStaffResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    CommentOnDisputeAsStaffResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_comment_on_dispute_as_staff_response_200_comments_item_author_role(
    value: str,
) -> CommentOnDisputeAsStaffResponse200CommentsItemAuthorRole:
    if (
        value
        in COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COMMENT_ON_DISPUTE_AS_STAFF_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
