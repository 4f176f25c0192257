from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SignInResponse201Provider")


@_attrs_define
class SignInResponse201Provider:
    """
    Attributes:
        id (str):
        name (str):
        email (str):
        categories (list[str]):
    """

    id: str
    name: str
    email: str
    categories: list[str]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        email = self.email

        categories = self.categories

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "email": email,
                "categories": categories,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        email = d.pop("email")

        categories = cast(list[str], d.pop("categories"))

        sign_in_response_201_provider = cls(
            id=id,
            name=name,
            email=email,
            categories=categories,
        )

        return sign_in_response_201_provider
