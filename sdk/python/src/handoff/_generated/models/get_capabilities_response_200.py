from __future__ import annotations

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

from ..models.get_capabilities_response_200_scopes_item import (
    GetCapabilitiesResponse200ScopesItem,
    check_get_capabilities_response_200_scopes_item,
)

if TYPE_CHECKING:
    from ..models.get_capabilities_response_200_authentication import (
        GetCapabilitiesResponse200Authentication,
    )
    from ..models.get_capabilities_response_200_files import (
        GetCapabilitiesResponse200Files,
    )
    from ..models.get_capabilities_response_200_limits import (
        GetCapabilitiesResponse200Limits,
    )
    from ..models.get_capabilities_response_200_rate_limits_item import (
        GetCapabilitiesResponse200RateLimitsItem,
    )
    from ..models.get_capabilities_response_200_webhooks import (
        GetCapabilitiesResponse200Webhooks,
    )


T = TypeVar("T", bound="GetCapabilitiesResponse200")


@_attrs_define
class GetCapabilitiesResponse200:
    """
    Attributes:
        object_ (Literal['capabilities']):
        api_version (str):
        base_path (str):
        authentication (GetCapabilitiesResponse200Authentication):
        scopes (list[GetCapabilitiesResponse200ScopesItem]):
        event_types (list[str]):
        limits (GetCapabilitiesResponse200Limits):
        rate_limits (list[GetCapabilitiesResponse200RateLimitsItem]):
        rate_limit_headers (str):
        files (GetCapabilitiesResponse200Files):
        webhooks (GetCapabilitiesResponse200Webhooks):
    """

    object_: Literal["capabilities"]
    api_version: str
    base_path: str
    authentication: GetCapabilitiesResponse200Authentication
    scopes: list[GetCapabilitiesResponse200ScopesItem]
    event_types: list[str]
    limits: GetCapabilitiesResponse200Limits
    rate_limits: list[GetCapabilitiesResponse200RateLimitsItem]
    rate_limit_headers: str
    files: GetCapabilitiesResponse200Files
    webhooks: GetCapabilitiesResponse200Webhooks

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        api_version = self.api_version

        base_path = self.base_path

        authentication = self.authentication.to_dict()

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item: str = scopes_item_data
            scopes.append(scopes_item)

        event_types = self.event_types

        limits = self.limits.to_dict()

        rate_limits = []
        for rate_limits_item_data in self.rate_limits:
            rate_limits_item = rate_limits_item_data.to_dict()
            rate_limits.append(rate_limits_item)

        rate_limit_headers = self.rate_limit_headers

        files = self.files.to_dict()

        webhooks = self.webhooks.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "api_version": api_version,
                "base_path": base_path,
                "authentication": authentication,
                "scopes": scopes,
                "event_types": event_types,
                "limits": limits,
                "rate_limits": rate_limits,
                "rate_limit_headers": rate_limit_headers,
                "files": files,
                "webhooks": webhooks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_capabilities_response_200_authentication import (
            GetCapabilitiesResponse200Authentication,
        )
        from ..models.get_capabilities_response_200_files import (
            GetCapabilitiesResponse200Files,
        )
        from ..models.get_capabilities_response_200_limits import (
            GetCapabilitiesResponse200Limits,
        )
        from ..models.get_capabilities_response_200_rate_limits_item import (
            GetCapabilitiesResponse200RateLimitsItem,
        )
        from ..models.get_capabilities_response_200_webhooks import (
            GetCapabilitiesResponse200Webhooks,
        )

        d = dict(src_dict)
        object_ = cast(Literal["capabilities"], d.pop("object"))
        if object_ != "capabilities":
            raise ValueError(f"object must match const 'capabilities', got '{object_}'")

        api_version = d.pop("api_version")

        base_path = d.pop("base_path")

        authentication = GetCapabilitiesResponse200Authentication.from_dict(
            d.pop("authentication")
        )

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = check_get_capabilities_response_200_scopes_item(
                scopes_item_data
            )

            scopes.append(scopes_item)

        event_types = cast(list[str], d.pop("event_types"))

        limits = GetCapabilitiesResponse200Limits.from_dict(d.pop("limits"))

        rate_limits = []
        _rate_limits = d.pop("rate_limits")
        for rate_limits_item_data in _rate_limits:
            rate_limits_item = GetCapabilitiesResponse200RateLimitsItem.from_dict(
                rate_limits_item_data
            )

            rate_limits.append(rate_limits_item)

        rate_limit_headers = d.pop("rate_limit_headers")

        files = GetCapabilitiesResponse200Files.from_dict(d.pop("files"))

        webhooks = GetCapabilitiesResponse200Webhooks.from_dict(d.pop("webhooks"))

        get_capabilities_response_200 = cls(
            object_=object_,
            api_version=api_version,
            base_path=base_path,
            authentication=authentication,
            scopes=scopes,
            event_types=event_types,
            limits=limits,
            rate_limits=rate_limits,
            rate_limit_headers=rate_limit_headers,
            files=files,
            webhooks=webhooks,
        )

        return get_capabilities_response_200
