from typing import Literal

GetDeliverableResponse200FilesItemContentType = Literal[
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

GET_DELIVERABLE_RESPONSE_200_FILES_ITEM_CONTENT_TYPE_VALUES: set[
    GetDeliverableResponse200FilesItemContentType
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


def check_get_deliverable_response_200_files_item_content_type(
    value: str,
) -> GetDeliverableResponse200FilesItemContentType:
    if value in GET_DELIVERABLE_RESPONSE_200_FILES_ITEM_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_DELIVERABLE_RESPONSE_200_FILES_ITEM_CONTENT_TYPE_VALUES!r}"
    )
