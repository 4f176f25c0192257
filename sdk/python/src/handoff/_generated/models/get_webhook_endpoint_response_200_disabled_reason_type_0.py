from typing import Literal

GetWebhookEndpointResponse200DisabledReasonType0 = Literal["failing", "gone", "manual"]

GET_WEBHOOK_ENDPOINT_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES: set[
    GetWebhookEndpointResponse200DisabledReasonType0
] = {
    "failing",
    "gone",
    "manual",
}


def check_get_webhook_endpoint_response_200_disabled_reason_type_0(
    value: str,
) -> GetWebhookEndpointResponse200DisabledReasonType0:
    if value in GET_WEBHOOK_ENDPOINT_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_WEBHOOK_ENDPOINT_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
