from typing import Literal

ApproveAccessApplicationResponse200RequestedScopesItem = Literal[
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

APPROVE_ACCESS_APPLICATION_RESPONSE_200_REQUESTED_SCOPES_ITEM_VALUES: set[
    ApproveAccessApplicationResponse200RequestedScopesItem
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


def check_approve_access_application_response_200_requested_scopes_item(
    value: str,
) -> ApproveAccessApplicationResponse200RequestedScopesItem:
    if value in APPROVE_ACCESS_APPLICATION_RESPONSE_200_REQUESTED_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_ACCESS_APPLICATION_RESPONSE_200_REQUESTED_SCOPES_ITEM_VALUES!r}"
    )
