from typing import Literal

SubmitAccessApplicationResponse201GrantedScopesType0Item = Literal[
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

SUBMIT_ACCESS_APPLICATION_RESPONSE_201_GRANTED_SCOPES_TYPE_0_ITEM_VALUES: set[
    SubmitAccessApplicationResponse201GrantedScopesType0Item
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


def check_submit_access_application_response_201_granted_scopes_type_0_item(
    value: str,
) -> SubmitAccessApplicationResponse201GrantedScopesType0Item:
    if (
        value
        in SUBMIT_ACCESS_APPLICATION_RESPONSE_201_GRANTED_SCOPES_TYPE_0_ITEM_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SUBMIT_ACCESS_APPLICATION_RESPONSE_201_GRANTED_SCOPES_TYPE_0_ITEM_VALUES!r}"
    )
