from typing import Literal

RejectAccessApplicationResponse200GrantedScopesType0Item = Literal[
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

REJECT_ACCESS_APPLICATION_RESPONSE_200_GRANTED_SCOPES_TYPE_0_ITEM_VALUES: set[
    RejectAccessApplicationResponse200GrantedScopesType0Item
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


def check_reject_access_application_response_200_granted_scopes_type_0_item(
    value: str,
) -> RejectAccessApplicationResponse200GrantedScopesType0Item:
    if (
        value
        in REJECT_ACCESS_APPLICATION_RESPONSE_200_GRANTED_SCOPES_TYPE_0_ITEM_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {REJECT_ACCESS_APPLICATION_RESPONSE_200_GRANTED_SCOPES_TYPE_0_ITEM_VALUES!r}"
    )
