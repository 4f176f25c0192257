from typing import Literal

ListAccessApplicationsResponse200DataItemGrantedScopesType0Item = Literal[
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

LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_GRANTED_SCOPES_TYPE_0_ITEM_VALUES: set[
    ListAccessApplicationsResponse200DataItemGrantedScopesType0Item
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


def check_list_access_applications_response_200_data_item_granted_scopes_type_0_item(
    value: str,
) -> ListAccessApplicationsResponse200DataItemGrantedScopesType0Item:
    if (
        value
        in LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_GRANTED_SCOPES_TYPE_0_ITEM_VALUES
    ):
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_ACCESS_APPLICATIONS_RESPONSE_200_DATA_ITEM_GRANTED_SCOPES_TYPE_0_ITEM_VALUES!r}"
    )
