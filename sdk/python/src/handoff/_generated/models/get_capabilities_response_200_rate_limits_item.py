from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetCapabilitiesResponse200RateLimitsItem")


@_attrs_define
class GetCapabilitiesResponse200RateLimitsItem:
    """
    Attributes:
        name (str):
        applies_to (str):
        limit (int):
        window_seconds (int):
    """

    name: str
    applies_to: str
    limit: int
    window_seconds: int

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        applies_to = self.applies_to

        limit = self.limit

        window_seconds = self.window_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "applies_to": applies_to,
                "limit": limit,
                "window_seconds": window_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        applies_to = d.pop("applies_to")

        limit = d.pop("limit")

        window_seconds = d.pop("window_seconds")

        get_capabilities_response_200_rate_limits_item = cls(
            name=name,
            applies_to=applies_to,
            limit=limit,
            window_seconds=window_seconds,
        )

        return get_capabilities_response_200_rate_limits_item
