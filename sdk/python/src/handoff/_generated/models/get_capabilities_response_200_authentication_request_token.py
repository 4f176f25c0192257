from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetCapabilitiesResponse200AuthenticationRequestToken")


@_attrs_define
class GetCapabilitiesResponse200AuthenticationRequestToken:
    """
    Attributes:
        header (str):
    """

    header: str

    def to_dict(self) -> dict[str, Any]:
        header = self.header

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "header": header,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        header = d.pop("header")

        get_capabilities_response_200_authentication_request_token = cls(
            header=header,
        )

        return get_capabilities_response_200_authentication_request_token
