from typing import Literal

UpdateWebhookEndpointResponse200DisabledReasonType0 = Literal[
    "failing", "gone", "manual"
]

UPDATE_WEBHOOK_ENDPOINT_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES: set[
    UpdateWebhookEndpointResponse200DisabledReasonType0
] = {
    "failing",
    "gone",
    "manual",
}


def check_update_webhook_endpoint_response_200_disabled_reason_type_0(
    value: str,
) -> UpdateWebhookEndpointResponse200DisabledReasonType0:
    if value in UPDATE_WEBHOOK_ENDPOINT_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_WEBHOOK_ENDPOINT_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
