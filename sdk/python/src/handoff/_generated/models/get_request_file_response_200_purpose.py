from typing import Literal

GetRequestFileResponse200Purpose = Literal["deliverable", "message_attachment"]

GET_REQUEST_FILE_RESPONSE_200_PURPOSE_VALUES: set[GetRequestFileResponse200Purpose] = {
    "deliverable",
    "message_attachment",
}


def check_get_request_file_response_200_purpose(
    value: str,
) -> GetRequestFileResponse200Purpose:
    if value in GET_REQUEST_FILE_RESPONSE_200_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_REQUEST_FILE_RESPONSE_200_PURPOSE_VALUES!r}"
    )
