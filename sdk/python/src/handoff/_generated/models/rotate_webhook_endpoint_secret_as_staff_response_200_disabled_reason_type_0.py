from typing import Literal

RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0 = Literal[
    "failing", "gone", "manual"
]

ROTATE_WEBHOOK_ENDPOINT_SECRET_AS_STAFF_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES: set[
    RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0
] = {
    "failing",
    "gone",
    "manual",
}


def check_rotate_webhook_endpoint_secret_as_staff_response_200_disabled_reason_type_0(
    value: str,
) -> RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0:
    if (
        value
        in ROTATE_WEBHOOK_ENDPOINT_SECRET_AS_STAFF_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ROTATE_WEBHOOK_ENDPOINT_SECRET_AS_STAFF_RESPONSE_200_DISABLED_REASON_TYPE_0_VALUES!r}"
    )
