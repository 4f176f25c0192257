from typing import Literal

IssueApiKeyResponse201ScopesItem = Literal[
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

ISSUE_API_KEY_RESPONSE_201_SCOPES_ITEM_VALUES: set[IssueApiKeyResponse201ScopesItem] = {
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


def check_issue_api_key_response_201_scopes_item(
    value: str,
) -> IssueApiKeyResponse201ScopesItem:
    if value in ISSUE_API_KEY_RESPONSE_201_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ISSUE_API_KEY_RESPONSE_201_SCOPES_ITEM_VALUES!r}"
    )
