from typing import Literal

ListWebhookEndpointsAsStaffResponse200DataItemDisabledReasonType0 = Literal[
    "failing", "gone", "manual"
]

LIST_WEBHOOK_ENDPOINTS_AS_STAFF_RESPONSE_200_DATA_ITEM_DISABLED_REASON_TYPE_0_VALUES: set[
    ListWebhookEndpointsAsStaffResponse200DataItemDisabledReasonType0
] = {
    "failing",
    "gone",
    "manual",
}


def check_list_webhook_endpoints_as_staff_response_200_data_item_disabled_reason_type_0(
    value: str,
) -> ListWebhookEndpointsAsStaffResponse200DataItemDisabledReasonType0:
    if (
        value
        in LIST_WEBHOOK_ENDPOINTS_AS_STAFF_RESPONSE_200_DATA_ITEM_DISABLED_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_WEBHOOK_ENDPOINTS_AS_STAFF_RESPONSE_200_DATA_ITEM_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
