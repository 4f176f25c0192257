from typing import Literal

GetProviderRequestFileResponse200UploadedBy = Literal["agent", "provider"]

GET_PROVIDER_REQUEST_FILE_RESPONSE_200_UPLOADED_BY_VALUES: set[
    GetProviderRequestFileResponse200UploadedBy
] = {
    "agent",
    "provider",
}


def check_get_provider_request_file_response_200_uploaded_by(
    value: str,
) -> GetProviderRequestFileResponse200UploadedBy:
    if value in GET_PROVIDER_REQUEST_FILE_RESPONSE_200_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_REQUEST_FILE_RESPONSE_200_UPLOADED_BY_VALUES!r}"
    )
