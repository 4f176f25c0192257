from typing import Literal

ClaimApiKeyResponse201ScopesItem = Literal[
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

CLAIM_API_KEY_RESPONSE_201_SCOPES_ITEM_VALUES: set[ClaimApiKeyResponse201ScopesItem] = {
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


def check_claim_api_key_response_201_scopes_item(
    value: str,
) -> ClaimApiKeyResponse201ScopesItem:
    if value in CLAIM_API_KEY_RESPONSE_201_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CLAIM_API_KEY_RESPONSE_201_SCOPES_ITEM_VALUES!r}"
    )
