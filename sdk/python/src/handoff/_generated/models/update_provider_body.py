from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.update_provider_body_availability import (
    UpdateProviderBodyAvailability,
    check_update_provider_body_availability,
)
from ..models.update_provider_body_status import (
    UpdateProviderBodyStatus,
    check_update_provider_body_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateProviderBody")


@_attrs_define
class UpdateProviderBody:
    """
    Attributes:
        name (str | Unset):
        email (str | Unset):
        categories (list[str] | Unset):
        status (UpdateProviderBodyStatus | Unset):
        capacity (int | Unset): The most requests the provider holds at once: offered to it and not yet answered, or
            accepted and not yet completed or cancelled. 0 takes it out of automatic routing.
        languages (list[str] | Unset): The languages the provider works in. Empty: any (the rules then never pass it
            over for a language).
        availability (UpdateProviderBodyAvailability | Unset): `available`: the rules may offer it requests. `away`:
            they pass it over (it keeps what it holds).
    """

    name: str | Unset = UNSET
    email: str | Unset = UNSET
    categories: list[str] | Unset = UNSET
    status: UpdateProviderBodyStatus | Unset = UNSET
    capacity: int | Unset = UNSET
    languages: list[str] | Unset = UNSET
    availability: UpdateProviderBodyAvailability | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        email = self.email

        categories: list[str] | Unset = UNSET
        if not isinstance(self.categories, Unset):
            categories = self.categories

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status

        capacity = self.capacity

        languages: list[str] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = self.languages

        availability: str | Unset = UNSET
        if not isinstance(self.availability, Unset):
            availability = self.availability

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if email is not UNSET:
            field_dict["email"] = email
        if categories is not UNSET:
            field_dict["categories"] = categories
        if status is not UNSET:
            field_dict["status"] = status
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
        name = d.pop("name", UNSET)

        email = d.pop("email", UNSET)

        categories = cast(list[str], d.pop("categories", UNSET))

        _status = d.pop("status", UNSET)
        status: UpdateProviderBodyStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = check_update_provider_body_status(_status)

        capacity = d.pop("capacity", UNSET)

        languages = cast(list[str], d.pop("languages", UNSET))

        _availability = d.pop("availability", UNSET)
        availability: UpdateProviderBodyAvailability | Unset
        if isinstance(_availability, Unset):
            availability = UNSET
        else:
            availability = check_update_provider_body_availability(_availability)

        update_provider_body = cls(
            name=name,
            email=email,
            categories=categories,
            status=status,
            capacity=capacity,
            languages=languages,
            availability=availability,
        )

        return update_provider_body
