from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_human_request_legacy_response_201_routing_mode import (
    CreateHumanRequestLegacyResponse201RoutingMode,
    check_create_human_request_legacy_response_201_routing_mode,
)

T = TypeVar("T", bound="CreateHumanRequestLegacyResponse201Routing")


@_attrs_define
class CreateHumanRequestLegacyResponse201Routing:
    """
    Attributes:
        mode (CreateHumanRequestLegacyResponse201RoutingMode):
        provider_ids (list[str]):
    """

    mode: CreateHumanRequestLegacyResponse201RoutingMode
    provider_ids: list[str]

    def to_dict(self) -> dict[str, Any]:
        mode: str = self.mode

        provider_ids = self.provider_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
                "provider_ids": provider_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mode = check_create_human_request_legacy_response_201_routing_mode(
            d.pop("mode")
        )

        provider_ids = cast(list[str], d.pop("provider_ids"))

        create_human_request_legacy_response_201_routing = cls(
            mode=mode,
            provider_ids=provider_ids,
        )

        return create_human_request_legacy_response_201_routing
