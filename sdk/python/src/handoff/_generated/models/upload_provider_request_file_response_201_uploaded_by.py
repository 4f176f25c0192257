from typing import Literal

UploadProviderRequestFileResponse201UploadedBy = Literal["agent", "provider"]

UPLOAD_PROVIDER_REQUEST_FILE_RESPONSE_201_UPLOADED_BY_VALUES: set[
    UploadProviderRequestFileResponse201UploadedBy
] = {
    "agent",
    "provider",
}


def check_upload_provider_request_file_response_201_uploaded_by(
    value: str,
) -> UploadProviderRequestFileResponse201UploadedBy:
    if value in UPLOAD_PROVIDER_REQUEST_FILE_RESPONSE_201_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOAD_PROVIDER_REQUEST_FILE_RESPONSE_201_UPLOADED_BY_VALUES!r}"
    )
