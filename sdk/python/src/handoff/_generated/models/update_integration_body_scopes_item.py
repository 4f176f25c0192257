from typing import Literal

UpdateIntegrationBodyScopesItem = Literal[
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

UPDATE_INTEGRATION_BODY_SCOPES_ITEM_VALUES: set[UpdateIntegrationBodyScopesItem] = {
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


def check_update_integration_body_scopes_item(
    value: str,
) -> UpdateIntegrationBodyScopesItem:
    if value in UPDATE_INTEGRATION_BODY_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_INTEGRATION_BODY_SCOPES_ITEM_VALUES!r}"
    )
