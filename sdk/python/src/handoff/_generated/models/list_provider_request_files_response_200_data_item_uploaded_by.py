from typing import Literal

ListProviderRequestFilesResponse200DataItemUploadedBy = Literal["agent", "provider"]

LIST_PROVIDER_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES: set[
    ListProviderRequestFilesResponse200DataItemUploadedBy
] = {
    "agent",
    "provider",
}


def check_list_provider_request_files_response_200_data_item_uploaded_by(
    value: str,
) -> ListProviderRequestFilesResponse200DataItemUploadedBy:
    if value in LIST_PROVIDER_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_PROVIDER_REQUEST_FILES_RESPONSE_200_DATA_ITEM_UPLOADED_BY_VALUES!r}"
    )
