from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.list_providers_response_200_data_item_availability import (
    ListProvidersResponse200DataItemAvailability,
    check_list_providers_response_200_data_item_availability,
)
from ..models.list_providers_response_200_data_item_status import (
    ListProvidersResponse200DataItemStatus,
    check_list_providers_response_200_data_item_status,
)

if TYPE_CHECKING:
    from ..models.list_providers_response_200_data_item_keys_item import (
        ListProvidersResponse200DataItemKeysItem,
    )
    from ..models.list_providers_response_200_data_item_routing_score import (
        ListProvidersResponse200DataItemRoutingScore,
    )


T = TypeVar("T", bound="ListProvidersResponse200DataItem")


@_attrs_define
class ListProvidersResponse200DataItem:
    """
    Attributes:
        object_ (Literal['provider']):
        id (str):
        name (str):
        email (str):
        categories (list[str]):
        status (ListProvidersResponse200DataItemStatus):
        capacity (int):
        languages (list[str]):
        availability (ListProvidersResponse200DataItemAvailability): `available`: the rules may offer it requests.
            `away`: they pass it over (it keeps what it holds).
        load (int): The requests it holds now (offered and unanswered, or accepted and open).
        routing_score (ListProvidersResponse200DataItemRoutingScore):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        keys (list[ListProvidersResponse200DataItemKeysItem]):
    """

    object_: Literal["provider"]
    id: str
    name: str
    email: str
    categories: list[str]
    status: ListProvidersResponse200DataItemStatus
    capacity: int
    languages: list[str]
    availability: ListProvidersResponse200DataItemAvailability
    load: int
    routing_score: ListProvidersResponse200DataItemRoutingScore
    created_at: datetime.datetime
    updated_at: datetime.datetime
    keys: list[ListProvidersResponse200DataItemKeysItem]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        name = self.name

        email = self.email

        categories = self.categories

        status: str = self.status

        capacity = self.capacity

        languages = self.languages

        availability: str = self.availability

        load = self.load

        routing_score = self.routing_score.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "name": name,
                "email": email,
                "categories": categories,
                "status": status,
                "capacity": capacity,
                "languages": languages,
                "availability": availability,
                "load": load,
                "routing_score": routing_score,
                "created_at": created_at,
                "updated_at": updated_at,
                "keys": keys,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_providers_response_200_data_item_keys_item import (
            ListProvidersResponse200DataItemKeysItem,
        )
        from ..models.list_providers_response_200_data_item_routing_score import (
            ListProvidersResponse200DataItemRoutingScore,
        )

        d = dict(src_dict)
        object_ = cast(Literal["provider"], d.pop("object"))
        if object_ != "provider":
            raise ValueError(f"object must match const 'provider', got '{object_}'")

        id = d.pop("id")

        name = d.pop("name")

        email = d.pop("email")

        categories = cast(list[str], d.pop("categories"))

        status = check_list_providers_response_200_data_item_status(d.pop("status"))

        capacity = d.pop("capacity")

        languages = cast(list[str], d.pop("languages"))

        availability = check_list_providers_response_200_data_item_availability(
            d.pop("availability")
        )

        load = d.pop("load")

        routing_score = ListProvidersResponse200DataItemRoutingScore.from_dict(
            d.pop("routing_score")
        )

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = ListProvidersResponse200DataItemKeysItem.from_dict(
                keys_item_data
            )

            keys.append(keys_item)

        list_providers_response_200_data_item = cls(
            object_=object_,
            id=id,
            name=name,
            email=email,
            categories=categories,
            status=status,
            capacity=capacity,
            languages=languages,
            availability=availability,
            load=load,
            routing_score=routing_score,
            created_at=created_at,
            updated_at=updated_at,
            keys=keys,
        )

        return list_providers_response_200_data_item
