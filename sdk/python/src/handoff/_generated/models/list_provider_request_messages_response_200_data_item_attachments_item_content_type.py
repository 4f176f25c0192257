from typing import Literal

ListProviderRequestMessagesResponse200DataItemAttachmentsItemContentType = Literal[
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

LIST_PROVIDER_REQUEST_MESSAGES_RESPONSE_200_DATA_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES: set[
    ListProviderRequestMessagesResponse200DataItemAttachmentsItemContentType
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


def check_list_provider_request_messages_response_200_data_item_attachments_item_content_type(
    value: str,
) -> ListProviderRequestMessagesResponse200DataItemAttachmentsItemContentType:
    if (
        value
        in LIST_PROVIDER_REQUEST_MESSAGES_RESPONSE_200_DATA_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUEST_MESSAGES_RESPONSE_200_DATA_ITEM_ATTACHMENTS_ITEM_CONTENT_TYPE_VALUES!r}"
    )
