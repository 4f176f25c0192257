from typing import Literal

CreateDeliverableResponse201FilesItemContentType = Literal[
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

CREATE_DELIVERABLE_RESPONSE_201_FILES_ITEM_CONTENT_TYPE_VALUES: set[
    CreateDeliverableResponse201FilesItemContentType
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


def check_create_deliverable_response_201_files_item_content_type(
    value: str,
) -> CreateDeliverableResponse201FilesItemContentType:
    if value in CREATE_DELIVERABLE_RESPONSE_201_FILES_ITEM_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_DELIVERABLE_RESPONSE_201_FILES_ITEM_CONTENT_TYPE_VALUES!r}"
    )
