from typing import Literal

GetRequestFileResponse200UploadedBy = Literal["agent", "provider"]

GET_REQUEST_FILE_RESPONSE_200_UPLOADED_BY_VALUES: set[
    GetRequestFileResponse200UploadedBy
] = {
    "agent",
    "provider",
}


def check_get_request_file_response_200_uploaded_by(
    value: str,
) -> GetRequestFileResponse200UploadedBy:
    if value in GET_REQUEST_FILE_RESPONSE_200_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_FILE_RESPONSE_200_UPLOADED_BY_VALUES!r}"
    )
