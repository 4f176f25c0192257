from typing import Literal

ApproveAccessApplicationBodyScopesItem = Literal[
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

APPROVE_ACCESS_APPLICATION_BODY_SCOPES_ITEM_VALUES: set[
    ApproveAccessApplicationBodyScopesItem
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


def check_approve_access_application_body_scopes_item(
    value: str,
) -> ApproveAccessApplicationBodyScopesItem:
    if value in APPROVE_ACCESS_APPLICATION_BODY_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_ACCESS_APPLICATION_BODY_SCOPES_ITEM_VALUES!r}"
    )
