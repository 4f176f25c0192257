from typing import Literal

SubmitAccessApplicationBodyRequestedScopesItem = Literal[
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

SUBMIT_ACCESS_APPLICATION_BODY_REQUESTED_SCOPES_ITEM_VALUES: set[
    SubmitAccessApplicationBodyRequestedScopesItem
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


def check_submit_access_application_body_requested_scopes_item(
    value: str,
) -> SubmitAccessApplicationBodyRequestedScopesItem:
    if value in SUBMIT_ACCESS_APPLICATION_BODY_REQUESTED_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUBMIT_ACCESS_APPLICATION_BODY_REQUESTED_SCOPES_ITEM_VALUES!r}"
    )
