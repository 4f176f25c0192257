from typing import Literal

GetRequestResponse200ConversationItemAttachmentsItemContentType = Literal[
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

GET_REQUEST_RESPONSE_200_CONVERSATION_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES: set[
    GetRequestResponse200ConversationItemAttachmentsItemContentType
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


def check_get_request_response_200_conversation_item_attachments_item_content_type(
    value: str,
) -> GetRequestResponse200ConversationItemAttachmentsItemContentType:
    if (
        value
        in GET_REQUEST_RESPONSE_200_CONVERSATION_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_RESPONSE_200_CONVERSATION_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES!r}"
    )
