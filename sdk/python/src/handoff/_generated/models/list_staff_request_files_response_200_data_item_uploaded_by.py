from typing import Literal

ListStaffRequestFilesResponse200DataItemUploadedBy = Literal["agent", "provider"]

LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES: set[
    ListStaffRequestFilesResponse200DataItemUploadedBy
] = {
    "agent",
    "provider",
}


def check_list_staff_request_files_response_200_data_item_uploaded_by(
    value: str,
) -> ListStaffRequestFilesResponse200DataItemUploadedBy:
    if value in LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES!r}"
    )
