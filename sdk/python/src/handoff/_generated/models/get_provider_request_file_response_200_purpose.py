from typing import Literal

GetProviderRequestFileResponse200Purpose = Literal["deliverable", "message_attachment"]

GET_PROVIDER_REQUEST_FILE_RESPONSE_200_PURPOSE_VALUES: set[
    GetProviderRequestFileResponse200Purpose
] = {
    "deliverable",
    "message_attachment",
}


def check_get_provider_request_file_response_200_purpose(
    value: str,
) -> GetProviderRequestFileResponse200Purpose:
    if value in GET_PROVIDER_REQUEST_FILE_RESPONSE_200_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_PROVIDER_REQUEST_FILE_RESPONSE_200_PURPOSE_VALUES!r}"
    )
