from typing import Literal

UpdateIntegrationResponse200ScopesItem = Literal[
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

UPDATE_INTEGRATION_RESPONSE_200_SCOPES_ITEM_VALUES: set[
    UpdateIntegrationResponse200ScopesItem
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


def check_update_integration_response_200_scopes_item(
    value: str,
) -> UpdateIntegrationResponse200ScopesItem:
    if value in UPDATE_INTEGRATION_RESPONSE_200_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_INTEGRATION_RESPONSE_200_SCOPES_ITEM_VALUES!r}"
    )
