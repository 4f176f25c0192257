from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ListServiceCategoriesResponse200DataItem")


@_attrs_define
class ListServiceCategoriesResponse200DataItem:
    """
    Attributes:
        slug (str):
        name (str):
        description (str):
    """

    slug: str
    name: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        name = self.name

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
                "name": name,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        name = d.pop("name")

        description = d.pop("description")

        list_service_categories_response_200_data_item = cls(
            slug=slug,
            name=name,
            description=description,
        )

        return list_service_categories_response_200_data_item
