from typing import Literal

ListDeliverablesResponse200DataItemFilesItemContentType = Literal[
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

LIST_DELIVERABLES_RESPONSE_200_DATA_ITEM_FILES_ITEM_CONTENT_TYPE_VALUES: set[
    ListDeliverablesResponse200DataItemFilesItemContentType
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


def check_list_deliverables_response_200_data_item_files_item_content_type(
    value: str,
) -> ListDeliverablesResponse200DataItemFilesItemContentType:
    if value in LIST_DELIVERABLES_RESPONSE_200_DATA_ITEM_FILES_ITEM_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DELIVERABLES_RESPONSE_200_DATA_ITEM_FILES_ITEM_CONTENT_TYPE_VALUES!r}"
    )
