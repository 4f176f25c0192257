from typing import Literal

ListRequestFilesResponse200DataItemPurpose = Literal[
    "deliverable", "message_attachment"
]

LIST_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES: set[
    ListRequestFilesResponse200DataItemPurpose
] = {
    "deliverable",
    "message_attachment",
}


def check_list_request_files_response_200_data_item_purpose(
    value: str,
) -> ListRequestFilesResponse200DataItemPurpose:
    if value in LIST_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES!r}"
    )
