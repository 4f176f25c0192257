from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateDeliverableBody")


@_attrs_define
class CreateDeliverableBody:
    """
    Attributes:
        title (str):
        url (str):
        description (str | Unset):
    """

    title: str
    url: str
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        url = self.url

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        url = d.pop("url")

        description = d.pop("description", UNSET)

        create_deliverable_body = cls(
            title=title,
            url=url,
            description=description,
        )

        return create_deliverable_body
