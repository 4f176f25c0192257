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

T = TypeVar("T", bound="ListRoutingCategoriesResponse200DataItem")


@_attrs_define
class ListRoutingCategoriesResponse200DataItem:
    """
    Attributes:
        object_ (Literal['category_routing']):
        category (str):
        paused (bool):
        pause_reason (None | str):
        paused_by (None | str):
        paused_at (datetime.datetime | None):
        max_offers (int):
        response_seconds (int): How long a provider has to accept or decline an offer before it lapses.
        updated_at (datetime.datetime | None):
        providers (int):
        available_providers (int):
        queued_requests (int):
    """

    object_: Literal["category_routing"]
    category: str
    paused: bool
    pause_reason: None | str
    paused_by: None | str
    paused_at: datetime.datetime | None
    max_offers: int
    response_seconds: int
    updated_at: datetime.datetime | None
    providers: int
    available_providers: int
    queued_requests: int

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        category = self.category

        paused = self.paused

        pause_reason: None | str
        pause_reason = self.pause_reason

        paused_by: None | str
        paused_by = self.paused_by

        paused_at: None | str
        if isinstance(self.paused_at, datetime.datetime):
            paused_at = self.paused_at.isoformat()
        else:
            paused_at = self.paused_at

        max_offers = self.max_offers

        response_seconds = self.response_seconds

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        providers = self.providers

        available_providers = self.available_providers

        queued_requests = self.queued_requests

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "category": category,
                "paused": paused,
                "pause_reason": pause_reason,
                "paused_by": paused_by,
                "paused_at": paused_at,
                "max_offers": max_offers,
                "response_seconds": response_seconds,
                "updated_at": updated_at,
                "providers": providers,
                "available_providers": available_providers,
                "queued_requests": queued_requests,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["category_routing"], d.pop("object"))
        if object_ != "category_routing":
            raise ValueError(
                f"object must match const 'category_routing', got '{object_}'"
            )

        category = d.pop("category")

        paused = d.pop("paused")

        def _parse_pause_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        pause_reason = _parse_pause_reason(d.pop("pause_reason"))

        def _parse_paused_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        paused_by = _parse_paused_by(d.pop("paused_by"))

        def _parse_paused_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paused_at_type_0 = datetime.datetime.fromisoformat(data)

                return paused_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        paused_at = _parse_paused_at(d.pop("paused_at"))

        max_offers = d.pop("max_offers")

        response_seconds = d.pop("response_seconds")

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        providers = d.pop("providers")

        available_providers = d.pop("available_providers")

        queued_requests = d.pop("queued_requests")

        list_routing_categories_response_200_data_item = cls(
            object_=object_,
            category=category,
            paused=paused,
            pause_reason=pause_reason,
            paused_by=paused_by,
            paused_at=paused_at,
            max_offers=max_offers,
            response_seconds=response_seconds,
            updated_at=updated_at,
            providers=providers,
            available_providers=available_providers,
            queued_requests=queued_requests,
        )

        return list_routing_categories_response_200_data_item
