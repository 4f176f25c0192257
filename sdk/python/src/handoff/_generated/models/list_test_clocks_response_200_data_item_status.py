from typing import Literal

ListTestClocksResponse200DataItemStatus = Literal["advancing", "ready"]

LIST_TEST_CLOCKS_RESPONSE_200_DATA_ITEM_STATUS_VALUES: set[
    ListTestClocksResponse200DataItemStatus
] = {
    "advancing",
    "ready",
}


def check_list_test_clocks_response_200_data_item_status(
    value: str,
) -> ListTestClocksResponse200DataItemStatus:
    if value in LIST_TEST_CLOCKS_RESPONSE_200_DATA_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_TEST_CLOCKS_RESPONSE_200_DATA_ITEM_STATUS_VALUES!r}"
    )
