from typing import Literal

ListWebhookEndpointsResponse200DataItemDisabledReasonType0 = Literal[
    "failing", "gone", "manual"
]

LIST_WEBHOOK_ENDPOINTS_RESPONSE_200_DATA_ITEM_DISABLED_REASON_TYPE_0_VALUES: set[
    ListWebhookEndpointsResponse200DataItemDisabledReasonType0
] = {
    "failing",
    "gone",
    "manual",
}


def check_list_webhook_endpoints_response_200_data_item_disabled_reason_type_0(
    value: str,
) -> ListWebhookEndpointsResponse200DataItemDisabledReasonType0:
    if (
        value
        in LIST_WEBHOOK_ENDPOINTS_RESPONSE_200_DATA_ITEM_DISABLED_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_WEBHOOK_ENDPOINTS_RESPONSE_200_DATA_ITEM_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
