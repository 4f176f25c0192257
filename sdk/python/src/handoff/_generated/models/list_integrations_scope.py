from typing import Literal

ListIntegrationsScope = Literal[
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

LIST_INTEGRATIONS_SCOPE_VALUES: set[ListIntegrationsScope] = {
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


def check_list_integrations_scope(value: str) -> ListIntegrationsScope:
    if value in LIST_INTEGRATIONS_SCOPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_INTEGRATIONS_SCOPE_VALUES!r}"
    )
