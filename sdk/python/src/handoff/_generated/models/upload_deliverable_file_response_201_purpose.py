from typing import Literal

UploadDeliverableFileResponse201Purpose = Literal["deliverable", "message_attachment"]

UPLOAD_DELIVERABLE_FILE_RESPONSE_201_PURPOSE_VALUES: set[
    UploadDeliverableFileResponse201Purpose
] = {
    "deliverable",
    "message_attachment",
}


def check_upload_deliverable_file_response_201_purpose(
    value: str,
) -> UploadDeliverableFileResponse201Purpose:
    if value in UPLOAD_DELIVERABLE_FILE_RESPONSE_201_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOAD_DELIVERABLE_FILE_RESPONSE_201_PURPOSE_VALUES!r}"
    )
