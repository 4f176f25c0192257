from typing import Literal

GetAccessApplicationResponse200RequestedScopesItem = Literal[
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

GET_ACCESS_APPLICATION_RESPONSE_200_REQUESTED_SCOPES_ITEM_VALUES: set[
    GetAccessApplicationResponse200RequestedScopesItem
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


def check_get_access_application_response_200_requested_scopes_item(
    value: str,
) -> GetAccessApplicationResponse200RequestedScopesItem:
    if value in GET_ACCESS_APPLICATION_RESPONSE_200_REQUESTED_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_ACCESS_APPLICATION_RESPONSE_200_REQUESTED_SCOPES_ITEM_VALUES!r}"
    )
