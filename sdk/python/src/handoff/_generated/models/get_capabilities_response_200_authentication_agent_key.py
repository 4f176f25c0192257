from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_capabilities_response_200_authentication_agent_key_lifetime_days import (
        GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays,
    )


T = TypeVar("T", bound="GetCapabilitiesResponse200AuthenticationAgentKey")


@_attrs_define
class GetCapabilitiesResponse200AuthenticationAgentKey:
    """
    Attributes:
        header (str):
        scheme (str):
        format_ (str):
        lifetime_days (GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays):
    """

    header: str
    scheme: str
    format_: str
    lifetime_days: GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays

    def to_dict(self) -> dict[str, Any]:
        header = self.header

        scheme = self.scheme

        format_ = self.format_

        lifetime_days = self.lifetime_days.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "header": header,
                "scheme": scheme,
                "format": format_,
                "lifetime_days": lifetime_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_capabilities_response_200_authentication_agent_key_lifetime_days import (
            GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays,
        )

        d = dict(src_dict)
        header = d.pop("header")

        scheme = d.pop("scheme")

        format_ = d.pop("format")

        lifetime_days = (
            GetCapabilitiesResponse200AuthenticationAgentKeyLifetimeDays.from_dict(
                d.pop("lifetime_days")
            )
        )

        get_capabilities_response_200_authentication_agent_key = cls(
            header=header,
            scheme=scheme,
            format_=format_,
            lifetime_days=lifetime_days,
        )

        return get_capabilities_response_200_authentication_agent_key
