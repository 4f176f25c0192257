from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetCapabilitiesResponse200AuthenticationProviderKey")


@_attrs_define
class GetCapabilitiesResponse200AuthenticationProviderKey:
    """
    Attributes:
        header (str):
        scheme (str):
        format_ (str):
        routes (str):
    """

    header: str
    scheme: str
    format_: str
    routes: str

    def to_dict(self) -> dict[str, Any]:
        header = self.header

        scheme = self.scheme

        format_ = self.format_

        routes = self.routes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "header": header,
                "scheme": scheme,
                "format": format_,
                "routes": routes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        header = d.pop("header")

        scheme = d.pop("scheme")

        format_ = d.pop("format")

        routes = d.pop("routes")

        get_capabilities_response_200_authentication_provider_key = cls(
            header=header,
            scheme=scheme,
            format_=format_,
            routes=routes,
        )

        return get_capabilities_response_200_authentication_provider_key
