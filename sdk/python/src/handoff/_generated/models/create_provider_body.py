from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_provider_body_availability import (
    CreateProviderBodyAvailability,
    check_create_provider_body_availability,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateProviderBody")


@_attrs_define
class CreateProviderBody:
    """
    Attributes:
        name (str):
        email (str):
        categories (list[str]):
        capacity (int | Unset): The most requests the provider holds at once: offered to it and not yet answered, or
            accepted and not yet completed or cancelled. 0 takes it out of automatic routing. 3 when not given.
        languages (list[str] | Unset): The languages the provider works in. Empty: any (the rules then never pass it
            over for a language).
        availability (CreateProviderBodyAvailability | Unset): `available`: the rules may offer it requests. `away`:
            they pass it over (it keeps what it holds).
    """

    name: str
    email: str
    categories: list[str]
    capacity: int | Unset = UNSET
    languages: list[str] | Unset = UNSET
    availability: CreateProviderBodyAvailability | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        email = self.email

        categories = self.categories

        capacity = self.capacity

        languages: list[str] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = self.languages

        availability: str | Unset = UNSET
        if not isinstance(self.availability, Unset):
            availability = self.availability

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "email": email,
                "categories": categories,
            }
        )
        if capacity is not UNSET:
            field_dict["capacity"] = capacity
        if languages is not UNSET:
            field_dict["languages"] = languages
        if availability is not UNSET:
            field_dict["availability"] = availability

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        email = d.pop("email")

        categories = cast(list[str], d.pop("categories"))

        capacity = d.pop("capacity", UNSET)

        languages = cast(list[str], d.pop("languages", UNSET))

        _availability = d.pop("availability", UNSET)
        availability: CreateProviderBodyAvailability | Unset
        if isinstance(_availability, Unset):
            availability = UNSET
        else:
            availability = check_create_provider_body_availability(_availability)

        create_provider_body = cls(
            name=name,
            email=email,
            categories=categories,
            capacity=capacity,
            languages=languages,
            availability=availability,
        )

        return create_provider_body
