from typing import Literal

GetIntegrationResponse200ScopesItem = Literal[
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

GET_INTEGRATION_RESPONSE_200_SCOPES_ITEM_VALUES: set[
    GetIntegrationResponse200ScopesItem
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


def check_get_integration_response_200_scopes_item(
    value: str,
) -> GetIntegrationResponse200ScopesItem:
    if value in GET_INTEGRATION_RESPONSE_200_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_INTEGRATION_RESPONSE_200_SCOPES_ITEM_VALUES!r}"
    )
