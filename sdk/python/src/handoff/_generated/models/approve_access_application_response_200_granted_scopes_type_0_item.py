from typing import Literal

ApproveAccessApplicationResponse200GrantedScopesType0Item = Literal[
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

APPROVE_ACCESS_APPLICATION_RESPONSE_200_GRANTED_SCOPES_TYPE_0_ITEM_VALUES: set[
    ApproveAccessApplicationResponse200GrantedScopesType0Item
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


def check_approve_access_application_response_200_granted_scopes_type_0_item(
    value: str,
) -> ApproveAccessApplicationResponse200GrantedScopesType0Item:
    if (
        value
        in APPROVE_ACCESS_APPLICATION_RESPONSE_200_GRANTED_SCOPES_TYPE_0_ITEM_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {APPROVE_ACCESS_APPLICATION_RESPONSE_200_GRANTED_SCOPES_TYPE_0_ITEM_VALUES!r}"
    )
