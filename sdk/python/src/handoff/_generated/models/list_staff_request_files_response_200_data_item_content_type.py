from typing import Literal

ListStaffRequestFilesResponse200DataItemContentType = Literal[
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

LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_CONTENT_TYPE_VALUES: set[
    ListStaffRequestFilesResponse200DataItemContentType
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


def check_list_staff_request_files_response_200_data_item_content_type(
    value: str,
) -> ListStaffRequestFilesResponse200DataItemContentType:
    if value in LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_CONTENT_TYPE_VALUES!r}"
    )
