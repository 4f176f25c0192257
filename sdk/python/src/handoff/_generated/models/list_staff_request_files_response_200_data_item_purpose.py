from typing import Literal

ListStaffRequestFilesResponse200DataItemPurpose = Literal[
    "deliverable", "message_attachment"
]

LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES: set[
    ListStaffRequestFilesResponse200DataItemPurpose
] = {
    "deliverable",
    "message_attachment",
}


def check_list_staff_request_files_response_200_data_item_purpose(
    value: str,
) -> ListStaffRequestFilesResponse200DataItemPurpose:
    if value in LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_STAFF_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES!r}"
    )
