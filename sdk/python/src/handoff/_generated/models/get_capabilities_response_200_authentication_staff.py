from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetCapabilitiesResponse200AuthenticationStaff")


@_attrs_define
class GetCapabilitiesResponse200AuthenticationStaff:
    """
    Attributes:
        header (str):
        scheme (str):
        token (str):
        required_role (str):
    """

    header: str
    scheme: str
    token: str
    required_role: str

    def to_dict(self) -> dict[str, Any]:
        header = self.header

        scheme = self.scheme

        token = self.token

        required_role = self.required_role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "header": header,
                "scheme": scheme,
                "token": token,
                "required_role": required_role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        header = d.pop("header")

        scheme = d.pop("scheme")

        token = d.pop("token")

        required_role = d.pop("required_role")

        get_capabilities_response_200_authentication_staff = cls(
            header=header,
            scheme=scheme,
            token=token,
            required_role=required_role,
        )

        return get_capabilities_response_200_authentication_staff
