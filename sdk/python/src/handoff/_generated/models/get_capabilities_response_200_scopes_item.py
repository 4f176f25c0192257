from typing import Literal

GetCapabilitiesResponse200ScopesItem = Literal[
    "disputes:manage",
    "disputes:read",
    "events:read",
    "jobs:read",
    "messages:create",
    "milestones:read",
    "milestones:review",
    "payments:propose",
    "proposals:accept",
    "proposals:read",
    "requests:create",
    "requests:read",
    "webhooks:manage",
]

GET_CAPABILITIES_RESPONSE_200_SCOPES_ITEM_VALUES: set[
    GetCapabilitiesResponse200ScopesItem
] = {
    "disputes:manage",
    "disputes:read",
    "events:read",
    "jobs:read",
    "messages:create",
    "milestones:read",
    "milestones:review",
    "payments:propose",
    "proposals:accept",
    "proposals:read",
    "requests:create",
    "requests:read",
    "webhooks:manage",
}


def check_get_capabilities_response_200_scopes_item(
    value: str,
) -> GetCapabilitiesResponse200ScopesItem:
    if value in GET_CAPABILITIES_RESPONSE_200_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_CAPABILITIES_RESPONSE_200_SCOPES_ITEM_VALUES!r}"
    )
