from typing import Literal

CreateWebhookEndpointResponse201DisabledReasonType0 = Literal[
    "failing", "gone", "manual"
]

CREATE_WEBHOOK_ENDPOINT_RESPONSE_201_DISABLED_REASON_TYPE_0_VALUES: set[
    CreateWebhookEndpointResponse201DisabledReasonType0
] = {
    "failing",
    "gone",
    "manual",
}


def check_create_webhook_endpoint_response_201_disabled_reason_type_0(
    value: str,
) -> CreateWebhookEndpointResponse201DisabledReasonType0:
    if value in CREATE_WEBHOOK_ENDPOINT_RESPONSE_201_DISABLED_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_WEBHOOK_ENDPOINT_RESPONSE_201_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
