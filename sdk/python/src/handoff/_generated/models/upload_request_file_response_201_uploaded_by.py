from typing import Literal

UploadRequestFileResponse201UploadedBy = Literal["agent", "provider"]

UPLOAD_REQUEST_FILE_RESPONSE_201_UPLOADED_BY_VALUES: set[
    UploadRequestFileResponse201UploadedBy
] = {
    "agent",
    "provider",
}


def check_upload_request_file_response_201_uploaded_by(
    value: str,
) -> UploadRequestFileResponse201UploadedBy:
    if value in UPLOAD_REQUEST_FILE_RESPONSE_201_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOAD_REQUEST_FILE_RESPONSE_201_UPLOADED_BY_VALUES!r}"
    )
