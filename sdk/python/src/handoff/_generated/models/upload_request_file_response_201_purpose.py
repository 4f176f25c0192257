from typing import Literal

UploadRequestFileResponse201Purpose = Literal["deliverable", "message_attachment"]

UPLOAD_REQUEST_FILE_RESPONSE_201_PURPOSE_VALUES: set[
    UploadRequestFileResponse201Purpose
] = {
    "deliverable",
    "message_attachment",
}


def check_upload_request_file_response_201_purpose(
    value: str,
) -> UploadRequestFileResponse201Purpose:
    if value in UPLOAD_REQUEST_FILE_RESPONSE_201_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOAD_REQUEST_FILE_RESPONSE_201_PURPOSE_VALUES!r}"
    )
