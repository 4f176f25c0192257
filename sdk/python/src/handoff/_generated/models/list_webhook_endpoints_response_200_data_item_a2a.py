from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ListWebhookEndpointsResponse200DataItemA2A")


@_attrs_define
class ListWebhookEndpointsResponse200DataItemA2A:
    """Extension: present on an endpoint an A2A push notification config made (docs/a2a.md): it delivers only that task's
    request's events, each as the A2A update it implies.

        Attributes:
            task_id (str):
            context_id (str):
            config_id (str):
    """

    task_id: str
    context_id: str
    config_id: str

    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        context_id = self.context_id

        config_id = self.config_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "task_id": task_id,
                "context_id": context_id,
                "config_id": config_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        task_id = d.pop("task_id")

        context_id = d.pop("context_id")

        config_id = d.pop("config_id")

        list_webhook_endpoints_response_200_data_item_a2a = cls(
            task_id=task_id,
            context_id=context_id,
            config_id=config_id,
        )

        return list_webhook_endpoints_response_200_data_item_a2a
