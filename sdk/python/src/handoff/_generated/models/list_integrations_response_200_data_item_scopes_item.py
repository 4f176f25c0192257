from typing import Literal

ListIntegrationsResponse200DataItemScopesItem = Literal[
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

LIST_INTEGRATIONS_RESPONSE_200_DATA_ITEM_SCOPES_ITEM_VALUES: set[
    ListIntegrationsResponse200DataItemScopesItem
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


def check_list_integrations_response_200_data_item_scopes_item(
    value: str,
) -> ListIntegrationsResponse200DataItemScopesItem:
    if value in LIST_INTEGRATIONS_RESPONSE_200_DATA_ITEM_SCOPES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_INTEGRATIONS_RESPONSE_200_DATA_ITEM_SCOPES_ITEM_VALUES!r}"
    )
