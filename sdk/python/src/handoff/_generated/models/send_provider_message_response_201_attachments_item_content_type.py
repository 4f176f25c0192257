from typing import Literal

SendProviderMessageResponse201AttachmentsItemContentType = Literal[
    "application/gzip",
    "application/json",
    "application/octet-stream",
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/zip",
    "image/gif",
    "image/jpeg",
    "image/png",
    "image/webp",
    "text/csv",
    "text/markdown",
    "text/plain",
]

SEND_PROVIDER_MESSAGE_RESPONSE_201_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES: set[
    SendProviderMessageResponse201AttachmentsItemContentType
] = {
    "application/gzip",
    "application/json",
    "application/octet-stream",
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/zip",
    "image/gif",
    "image/jpeg",
    "image/png",
    "image/webp",
    "text/csv",
    "text/markdown",
    "text/plain",
}


def check_send_provider_message_response_201_attachments_item_content_type(
    value: str,
) -> SendProviderMessageResponse201AttachmentsItemContentType:
    if value in SEND_PROVIDER_MESSAGE_RESPONSE_201_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SEND_PROVIDER_MESSAGE_RESPONSE_201_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES!r}"
    )
