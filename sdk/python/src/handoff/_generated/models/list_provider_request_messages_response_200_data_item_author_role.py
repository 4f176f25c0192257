from typing import Literal

ListProviderRequestMessagesResponse200DataItemAuthorRole = Literal[
    "agent", "customer", "provider", "staff"
]

LIST_PROVIDER_REQUEST_MESSAGES_RESPONSE_200_DATA_ITEM_AUTHOR_ROLE_VALUES: set[
    ListProviderRequestMessagesResponse200DataItemAuthorRole
] = {
    "agent",
    "customer",
    "provider",
    "staff",
}


def check_list_provider_request_messages_response_200_data_item_author_role(
    value: str,
) -> ListProviderRequestMessagesResponse200DataItemAuthorRole:
    if (
        value
        in LIST_PROVIDER_REQUEST_MESSAGES_RESPONSE_200_DATA_ITEM_AUTHOR_ROLE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUEST_MESSAGES_RESPONSE_200_DATA_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
