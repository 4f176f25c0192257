from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_capabilities_response_200_limits_engagement import (
        GetCapabilitiesResponse200LimitsEngagement,
    )
    from ..models.get_capabilities_response_200_limits_request import (
        GetCapabilitiesResponse200LimitsRequest,
    )


T = TypeVar("T", bound="GetCapabilitiesResponse200Limits")


@_attrs_define
class GetCapabilitiesResponse200Limits:
    """
    Attributes:
        body_bytes (int):
        json_depth_max (int):
        list_limit_max (int):
        idempotency_key_max_length (int):
        request (GetCapabilitiesResponse200LimitsRequest):
        webhook_endpoints_per_integration (int):
        engagement (GetCapabilitiesResponse200LimitsEngagement):
    """

    body_bytes: int
    json_depth_max: int
    list_limit_max: int
    idempotency_key_max_length: int
    request: GetCapabilitiesResponse200LimitsRequest
    webhook_endpoints_per_integration: int
    engagement: GetCapabilitiesResponse200LimitsEngagement

    def to_dict(self) -> dict[str, Any]:
        body_bytes = self.body_bytes

        json_depth_max = self.json_depth_max

        list_limit_max = self.list_limit_max

        idempotency_key_max_length = self.idempotency_key_max_length

        request = self.request.to_dict()

        webhook_endpoints_per_integration = self.webhook_endpoints_per_integration

        engagement = self.engagement.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "body_bytes": body_bytes,
                "json_depth_max": json_depth_max,
                "list_limit_max": list_limit_max,
                "idempotency_key_max_length": idempotency_key_max_length,
                "request": request,
                "webhook_endpoints_per_integration": webhook_endpoints_per_integration,
                "engagement": engagement,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_capabilities_response_200_limits_engagement import (
            GetCapabilitiesResponse200LimitsEngagement,
        )
        from ..models.get_capabilities_response_200_limits_request import (
            GetCapabilitiesResponse200LimitsRequest,
        )

        d = dict(src_dict)
        body_bytes = d.pop("body_bytes")

        json_depth_max = d.pop("json_depth_max")

        list_limit_max = d.pop("list_limit_max")

        idempotency_key_max_length = d.pop("idempotency_key_max_length")

        request = GetCapabilitiesResponse200LimitsRequest.from_dict(d.pop("request"))

        webhook_endpoints_per_integration = d.pop("webhook_endpoints_per_integration")

        engagement = GetCapabilitiesResponse200LimitsEngagement.from_dict(
            d.pop("engagement")
        )

        get_capabilities_response_200_limits = cls(
            body_bytes=body_bytes,
            json_depth_max=json_depth_max,
            list_limit_max=list_limit_max,
            idempotency_key_max_length=idempotency_key_max_length,
            request=request,
            webhook_endpoints_per_integration=webhook_endpoints_per_integration,
            engagement=engagement,
        )

        return get_capabilities_response_200_limits
