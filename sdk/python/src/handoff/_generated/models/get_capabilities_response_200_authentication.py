from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_capabilities_response_200_authentication_agent_key import (
        GetCapabilitiesResponse200AuthenticationAgentKey,
    )
    from ..models.get_capabilities_response_200_authentication_provider_key import (
        GetCapabilitiesResponse200AuthenticationProviderKey,
    )
    from ..models.get_capabilities_response_200_authentication_request_token import (
        GetCapabilitiesResponse200AuthenticationRequestToken,
    )
    from ..models.get_capabilities_response_200_authentication_staff import (
        GetCapabilitiesResponse200AuthenticationStaff,
    )


T = TypeVar("T", bound="GetCapabilitiesResponse200Authentication")


@_attrs_define
class GetCapabilitiesResponse200Authentication:
    """
    Attributes:
        agent_key (GetCapabilitiesResponse200AuthenticationAgentKey):
        request_token (GetCapabilitiesResponse200AuthenticationRequestToken):
        provider_key (GetCapabilitiesResponse200AuthenticationProviderKey):
        staff (GetCapabilitiesResponse200AuthenticationStaff):
    """

    agent_key: GetCapabilitiesResponse200AuthenticationAgentKey
    request_token: GetCapabilitiesResponse200AuthenticationRequestToken
    provider_key: GetCapabilitiesResponse200AuthenticationProviderKey
    staff: GetCapabilitiesResponse200AuthenticationStaff

    def to_dict(self) -> dict[str, Any]:
        agent_key = self.agent_key.to_dict()

        request_token = self.request_token.to_dict()

        provider_key = self.provider_key.to_dict()

        staff = self.staff.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agent_key": agent_key,
                "request_token": request_token,
                "provider_key": provider_key,
                "staff": staff,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_capabilities_response_200_authentication_agent_key import (
            GetCapabilitiesResponse200AuthenticationAgentKey,
        )
        from ..models.get_capabilities_response_200_authentication_provider_key import (
            GetCapabilitiesResponse200AuthenticationProviderKey,
        )
        from ..models.get_capabilities_response_200_authentication_request_token import (
            GetCapabilitiesResponse200AuthenticationRequestToken,
        )
        from ..models.get_capabilities_response_200_authentication_staff import (
            GetCapabilitiesResponse200AuthenticationStaff,
        )

        d = dict(src_dict)
        agent_key = GetCapabilitiesResponse200AuthenticationAgentKey.from_dict(
            d.pop("agent_key")
        )

        request_token = GetCapabilitiesResponse200AuthenticationRequestToken.from_dict(
            d.pop("request_token")
        )

        provider_key = GetCapabilitiesResponse200AuthenticationProviderKey.from_dict(
            d.pop("provider_key")
        )

        staff = GetCapabilitiesResponse200AuthenticationStaff.from_dict(d.pop("staff"))

        get_capabilities_response_200_authentication = cls(
            agent_key=agent_key,
            request_token=request_token,
            provider_key=provider_key,
            staff=staff,
        )

        return get_capabilities_response_200_authentication
