from typing import Literal

ListAccessApplicationsResponse200DataItemRequestedScopesItem = Literal[
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

LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_REQUESTED_SCOPES_ITEM_VALUES: set[
    ListAccessApplicationsResponse200DataItemRequestedScopesItem
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


def check_list_access_applications_response_200_data_item_requested_scopes_item(
    value: str,
) -> ListAccessApplicationsResponse200DataItemRequestedScopesItem:
    if (
        value
        in LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_REQUESTED_SCOPES_ITEM_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_REQUESTED_SCOPES_ITEM_VALUES!r}"
    )
