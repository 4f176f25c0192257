from typing import Literal

CancelRequestResponse200ConversationItemAuthorRole = Literal[
    "agent", "customer", "provider", "staff"
]

CANCEL_REQUEST_RESPONSE_200_CONVERSATION_ITEM_AUTHOR_ROLE_VALUES: set[
    CancelRequestResponse200ConversationItemAuthorRole
] = {
    "agent",
    "customer",
    "provider",
    "staff",
}


def check_cancel_request_response_200_conversation_item_author_role(
    value: str,
) -> CancelRequestResponse200ConversationItemAuthorRole:
    if value in CANCEL_REQUEST_RESPONSE_200_CONVERSATION_ITEM_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_CONVERSATION_ITEM_AUTHOR_ROLE_VALUES!r}"
    )
