from typing import Literal

GetCapabilitiesResponse200WebhooksSource = Literal["defaults", "webhook-dispatcher"]

GET_CAPABILITIES_RESPONSE_200_WEBHOOKS_SOURCE_VALUES: set[
    GetCapabilitiesResponse200WebhooksSource
] = {
    "defaults",
    "webhook-dispatcher",
}


def check_get_capabilities_response_200_webhooks_source(
    value: str,
) -> GetCapabilitiesResponse200WebhooksSource:
    if value in GET_CAPABILITIES_RESPONSE_200_WEBHOOKS_SOURCE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_CAPABILITIES_RESPONSE_200_WEBHOOKS_SOURCE_VALUES!r}"
    )
