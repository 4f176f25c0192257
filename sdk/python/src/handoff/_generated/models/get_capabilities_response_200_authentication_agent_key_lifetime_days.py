from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays")


@_attrs_define
class GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays:
    """
    Attributes:
        default (float):
        max_ (float):
    """

    default: float
    max_: float

    def to_dict(self) -> dict[str, Any]:
        default = self.default

        max_ = self.max_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "default": default,
                "max": max_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        default = d.pop("default")

        max_ = d.pop("max")

        get_capabilities_response_200_authentication_agent_key_lifetime_days = cls(
            default=default,
            max_=max_,
        )

        return get_capabilities_response_200_authentication_agent_key_lifetime_days
