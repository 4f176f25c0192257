from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.update_provider_me_response_200_availability import (
    UpdateProviderMeResponse200Availability,
    check_update_provider_me_response_200_availability,
)

T = TypeVar("T", bound="UpdateProviderMeResponse200")


@_attrs_define
class UpdateProviderMeResponse200:
    """
    Attributes:
        object_ (Literal['provider']):
        id (str):
        name (str):
        categories (list[str]):
        capacity (int):
        languages (list[str]):
        availability (UpdateProviderMeResponse200Availability): `available`: the rules may offer it requests. `away`:
            they pass it over (it keeps what it holds).
        load (int): The requests it holds now (offered and unanswered, or accepted and open).
        key_id (str):
        expires_at (datetime.datetime):
    """

    object_: Literal["provider"]
    id: str
    name: str
    categories: list[str]
    capacity: int
    languages: list[str]
    availability: UpdateProviderMeResponse200Availability
    load: int
    key_id: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        name = self.name

        categories = self.categories

        capacity = self.capacity

        languages = self.languages

        availability: str = self.availability

        load = self.load

        key_id = self.key_id

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "name": name,
                "categories": categories,
                "capacity": capacity,
                "languages": languages,
                "availability": availability,
                "load": load,
                "key_id": key_id,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["provider"], d.pop("object"))
        if object_ != "provider":
            raise ValueError(f"object must match const 'provider', got '{object_}'")

        id = d.pop("id")

        name = d.pop("name")

        categories = cast(list[str], d.pop("categories"))

        capacity = d.pop("capacity")

        languages = cast(list[str], d.pop("languages"))

        availability = check_update_provider_me_response_200_availability(
            d.pop("availability")
        )

        load = d.pop("load")

        key_id = d.pop("key_id")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        update_provider_me_response_200 = cls(
            object_=object_,
            id=id,
            name=name,
            categories=categories,
            capacity=capacity,
            languages=languages,
            availability=availability,
            load=load,
            key_id=key_id,
            expires_at=expires_at,
        )

        return update_provider_me_response_200
