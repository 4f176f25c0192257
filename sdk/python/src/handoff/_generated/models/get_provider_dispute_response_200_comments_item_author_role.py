from typing import Literal

GetProviderDisputeResponse200CommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

GET_PROVIDER_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    GetProviderDisputeResponse200CommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_get_provider_dispute_response_200_comments_item_author_role(
    value: str,
) -> GetProviderDisputeResponse200CommentsItemAuthorRole:
    if value in GET_PROVIDER_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_DISPUTE_RESPONSE_200_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
