from typing import Literal

CancelRequestResponse200ConversationItemAttachmentsItemContentType = Literal[
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

CANCEL_REQUEST_RESPONSE_200_CONVERSATION_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES: set[
    CancelRequestResponse200ConversationItemAttachmentsItemContentType
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


def check_cancel_request_response_200_conversation_item_attachments_item_content_type(
    value: str,
) -> CancelRequestResponse200ConversationItemAttachmentsItemContentType:
    if (
        value
        in CANCEL_REQUEST_RESPONSE_200_CONVERSATION_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CANCEL_REQUEST_RESPONSE_200_CONVERSATION_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES!r}"
    )
