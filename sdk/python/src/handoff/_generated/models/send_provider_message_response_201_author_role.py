from typing import Literal

SendProviderMessageResponse201AuthorRole = Literal[
    "agent", "customer", "provider", "staff"
]

SEND_PROVIDER_MESSAGE_RESPONSE_201_AUTHOR_ROLE_VALUES: set[
    SendProviderMessageResponse201AuthorRole
] = {
    "agent",
    "customer",
    "provider",
    "staff",
}


def check_send_provider_message_response_201_author_role(
    value: str,
) -> SendProviderMessageResponse201AuthorRole:
    if value in SEND_PROVIDER_MESSAGE_RESPONSE_201_AUTHOR_ROLE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SEND_PROVIDER_MESSAGE_RESPONSE_201_AUTHOR_ROLE_VALUES!r}"
    )
