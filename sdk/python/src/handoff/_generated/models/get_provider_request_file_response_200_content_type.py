from typing import Literal

GetProviderRequestFileResponse200ContentType = Literal[
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

GET_PROVIDER_REQUEST_FILE_RESPONSE_200_CONTENT_TYPE_VALUES: set[
    GetProviderRequestFileResponse200ContentType
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


def check_get_provider_request_file_response_200_content_type(
    value: str,
) -> GetProviderRequestFileResponse200ContentType:
    if value in GET_PROVIDER_REQUEST_FILE_RESPONSE_200_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_REQUEST_FILE_RESPONSE_200_CONTENT_TYPE_VALUES!r}"
    )
