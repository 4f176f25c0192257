from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.update_webhook_endpoint_body_event_types_item import (
    UpdateWebhookEndpointBodyEventTypesItem,
    check_update_webhook_endpoint_body_event_types_item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateWebhookEndpointBody")


@_attrs_define
class UpdateWebhookEndpointBody:
    """
    Attributes:
        url (str | Unset):
        event_types (list[UpdateWebhookEndpointBodyEventTypesItem] | Unset):
        description (None | str | Unset):
        enabled (bool | Unset):
    """

    url: str | Unset = UNSET
    event_types: list[UpdateWebhookEndpointBodyEventTypesItem] | Unset = UNSET
    description: None | str | Unset = UNSET
    enabled: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for event_types_item_data in self.event_types:
                event_types_item: str = event_types_item_data
                event_types.append(event_types_item)

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        enabled = self.enabled

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if description is not UNSET:
            field_dict["description"] = description
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _event_types = d.pop("event_types", UNSET)
        event_types: list[UpdateWebhookEndpointBodyEventTypesItem] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for event_types_item_data in _event_types:
                event_types_item = check_update_webhook_endpoint_body_event_types_item(
                    event_types_item_data
                )

                event_types.append(event_types_item)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        enabled = d.pop("enabled", UNSET)

        update_webhook_endpoint_body = cls(
            url=url,
            event_types=event_types,
            description=description,
            enabled=enabled,
        )

        return update_webhook_endpoint_body
