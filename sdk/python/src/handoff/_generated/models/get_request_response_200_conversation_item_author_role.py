from typing import Literal

GetRequestResponse200ConversationItemAuthorRole = Literal[
    "agent", "customer", "provider", "staff"
]

GET_REQUEST_RESPONSE_200_CONVERSATION_ITEM_AUTHOR_ROLE_VALUES: set[
    GetRequestResponse200ConversationItemAuthorRole
] = {
    "agent",
    "customer",
    "provider",
    "staff",
}


def check_get_request_response_200_conversation_item_author_role(
    value: str,
) -> GetRequestResponse200ConversationItemAuthorRole:
    if value in GET_REQUEST_RESPONSE_200_CONVERSATION_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_CONVERSATION_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
