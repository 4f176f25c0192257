from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.update_integration_body_scopes_item import (
    UpdateIntegrationBodyScopesItem,
    check_update_integration_body_scopes_item,
)

T = TypeVar("T", bound="UpdateIntegrationBody")


@_attrs_define
class UpdateIntegrationBody:
    """
    Attributes:
        scopes (list[UpdateIntegrationBodyScopesItem]):
    """

    scopes: list[UpdateIntegrationBodyScopesItem]

    def to_dict(self) -> dict[str, Any]:
        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item: str = scopes_item_data
            scopes.append(scopes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scopes": scopes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = check_update_integration_body_scopes_item(scopes_item_data)

            scopes.append(scopes_item)

        update_integration_body = cls(
            scopes=scopes,
        )

        return update_integration_body
