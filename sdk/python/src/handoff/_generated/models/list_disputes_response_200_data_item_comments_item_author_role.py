from typing import Literal

ListDisputesResponse200DataItemCommentsItemAuthorRole = Literal[
    "customer", "provider", "staff"
]

LIST_DISPUTES_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES: set[
    ListDisputesResponse200DataItemCommentsItemAuthorRole
] = {
    "customer",
    "provider",
    "staff",
}


def check_list_disputes_response_200_data_item_comments_item_author_role(
    value: str,
) -> ListDisputesResponse200DataItemCommentsItemAuthorRole:
    if value in LIST_DISPUTES_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DISPUTES_RESPONSE_200_DATA_ITEM_COMMENTS_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
