from typing import Literal

UploadDeliverableFileResponse201UploadedBy = Literal["agent", "provider"]

UPLOAD_DELIVERABLE_FILE_RESPONSE_201_UPLOADED_BY_VALUES: set[
    UploadDeliverableFileResponse201UploadedBy
] = {
    "agent",
    "provider",
}


def check_upload_deliverable_file_response_201_uploaded_by(
    value: str,
) -> UploadDeliverableFileResponse201UploadedBy:
    if value in UPLOAD_DELIVERABLE_FILE_RESPONSE_201_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOAD_DELIVERABLE_FILE_RESPONSE_201_UPLOADED_BY_VALUES!r}"
    )
