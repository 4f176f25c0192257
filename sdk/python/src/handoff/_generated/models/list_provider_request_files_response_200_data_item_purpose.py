from typing import Literal

ListProviderRequestFilesResponse200DataItemPurpose = Literal[
    "deliverable", "message_attachment"
]

LIST_PROVIDER_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES: set[
    ListProviderRequestFilesResponse200DataItemPurpose
] = {
    "deliverable",
    "message_attachment",
}


def check_list_provider_request_files_response_200_data_item_purpose(
    value: str,
) -> ListProviderRequestFilesResponse200DataItemPurpose:
    if value in LIST_PROVIDER_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUEST_FILES_RESPONSE_200_DATA_ITEM_PURPOSE_VALUES!r}"
    )
