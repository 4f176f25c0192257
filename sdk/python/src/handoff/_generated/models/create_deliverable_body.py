from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateDeliverableBody")


@_attrs_define
class CreateDeliverableBody:
    """
    Attributes:
        title (str):
        url (str | Unset):
        description (str | Unset):
        files (list[str] | Unset):
    """

    title: str
    url: str | Unset = UNSET
    description: str | Unset = UNSET
    files: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        url = self.url

        description = self.description

        files: list[str] | Unset = UNSET
        if not isinstance(self.files, Unset):
            files = self.files

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
            }
        )
        if url is not UNSET:
            field_dict["url"] = url
        if description is not UNSET:
            field_dict["description"] = description
        if files is not UNSET:
            field_dict["files"] = files

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        url = d.pop("url", UNSET)

        description = d.pop("description", UNSET)

        files = cast(list[str], d.pop("files", UNSET))

        create_deliverable_body = cls(
            title=title,
            url=url,
            description=description,
            files=files,
        )

        return create_deliverable_body
