from typing import Literal

ListProviderDisputesResponse200DataItemCommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    ListProviderDisputesResponse200DataItemCommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_list_provider_disputes_response_200_data_item_comments_item_author_role(
    value: str,
) -> ListProviderDisputesResponse200DataItemCommentsItemAuthorRole:
    if (
        value
        in LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_DISPUTES_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
