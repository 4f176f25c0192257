from typing import Literal

UploadProviderRequestFileResponse201Purpose = Literal[
    "deliverable", "message_attachment"
]

UPLOAD_PROVIDER_REQUEST_FILE_RESPONSE_201_PURPOSE_VALUES: set[
    UploadProviderRequestFileResponse201Purpose
] = {
    "deliverable",
    "message_attachment",
}


def check_upload_provider_request_file_response_201_purpose(
    value: str,
) -> UploadProviderRequestFileResponse201Purpose:
    if value in UPLOAD_PROVIDER_REQUEST_FILE_RESPONSE_201_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOAD_PROVIDER_REQUEST_FILE_RESPONSE_201_PURPOSE_VALUES!r}"
    )
