from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_webhook_endpoint_body_event_types_item import (
    CreateWebhookEndpointBodyEventTypesItem,
    check_create_webhook_endpoint_body_event_types_item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhookEndpointBody")


@_attrs_define
class CreateWebhookEndpointBody:
    """
    Attributes:
        url (str):
        event_types (list[CreateWebhookEndpointBodyEventTypesItem] | Unset):
        description (str | Unset):
    """

    url: str
    event_types: list[CreateWebhookEndpointBodyEventTypesItem] | Unset = UNSET
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for event_types_item_data in self.event_types:
                event_types_item: str = event_types_item_data
                event_types.append(event_types_item)

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        _event_types = d.pop("event_types", UNSET)
        event_types: list[CreateWebhookEndpointBodyEventTypesItem] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for event_types_item_data in _event_types:
                event_types_item = check_create_webhook_endpoint_body_event_types_item(
                    event_types_item_data
                )

                event_types.append(event_types_item)

        description = d.pop("description", UNSET)

        create_webhook_endpoint_body = cls(
            url=url,
            event_types=event_types,
            description=description,
        )

        return create_webhook_endpoint_body
