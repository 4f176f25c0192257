from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.update_provider_me_body_availability import (
    UpdateProviderMeBodyAvailability,
    check_update_provider_me_body_availability,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateProviderMeBody")


@_attrs_define
class UpdateProviderMeBody:
    """
    Attributes:
        languages (list[str] | Unset): The languages the provider works in. Empty: any (the rules then never pass it
            over for a language).
        availability (UpdateProviderMeBodyAvailability | Unset): `available`: the rules may offer it requests. `away`:
            they pass it over (it keeps what it holds).
    """

    languages: list[str] | Unset = UNSET
    availability: UpdateProviderMeBodyAvailability | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        languages: list[str] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = self.languages

        availability: str | Unset = UNSET
        if not isinstance(self.availability, Unset):
            availability = self.availability

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if languages is not UNSET:
            field_dict["languages"] = languages
        if availability is not UNSET:
            field_dict["availability"] = availability

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        languages = cast(list[str], d.pop("languages", UNSET))

        _availability = d.pop("availability", UNSET)
        availability: UpdateProviderMeBodyAvailability | Unset
        if isinstance(_availability, Unset):
            availability = UNSET
        else:
            availability = check_update_provider_me_body_availability(_availability)

        update_provider_me_body = cls(
            languages=languages,
            availability=availability,
        )

        return update_provider_me_body
