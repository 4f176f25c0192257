from typing import Literal

ListRequestFilesResponse200DataItemUploadedBy = Literal["agent", "provider"]

LIST_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES: set[
    ListRequestFilesResponse200DataItemUploadedBy
] = {
    "agent",
    "provider",
}


def check_list_request_files_response_200_data_item_uploaded_by(
    value: str,
) -> ListRequestFilesResponse200DataItemUploadedBy:
    if value in LIST_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES!r}"
    )
