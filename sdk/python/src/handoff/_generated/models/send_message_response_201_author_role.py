from typing import Literal

SendMessageResponse201AuthorRole = Literal["agent", "customer", "provider", "staff"]

SEND_MESSAGE_RESPONSE_201_AUTHOR_ROLE_VALUES: set[SendMessageResponse201AuthorRole] = {
    "agent",
    "customer",
    "provider",
    "staff",
}


def check_send_message_response_201_author_role(
    value: str,
) -> SendMessageResponse201AuthorRole:
    if value in SEND_MESSAGE_RESPONSE_201_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SEND_MESSAGE_RESPONSE_201_AUTHOR_ROLE_VALUES!r}"
    )
