from typing import Literal

SubmitAccessApplicationResponse201RequestedScopesItem = Literal[
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

SUBMIT_ACCESS_APPLICATION_RESPONSE_201_REQUESTED_SCOPES_ITEM_VALUES: set[
    SubmitAccessApplicationResponse201RequestedScopesItem
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


def check_submit_access_application_response_201_requested_scopes_item(
    value: str,
) -> SubmitAccessApplicationResponse201RequestedScopesItem:
    if value in SUBMIT_ACCESS_APPLICATION_RESPONSE_201_REQUESTED_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUBMIT_ACCESS_APPLICATION_RESPONSE_201_REQUESTED_SCOPES_ITEM_VALUES!r}"
    )
