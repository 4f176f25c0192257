from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="OverrideRequestRoutingBodyType0")


@_attrs_define
class OverrideRequestRoutingBodyType0:
    """
    Attributes:
        action (Literal['offer']): Offer it to this provider now, whatever the rules say (capacity, pause,
            availability); a pending offer is withdrawn.
        provider_id (str):
        reason (str):
    """

    action: Literal["offer"]
    provider_id: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        provider_id = self.provider_id

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "provider_id": provider_id,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = cast(Literal["offer"], d.pop("action"))
        if action != "offer":
            raise ValueError(f"action must match const 'offer', got '{action}'")

        provider_id = d.pop("provider_id")

        reason = d.pop("reason")

        override_request_routing_body_type_0 = cls(
            action=action,
            provider_id=provider_id,
            reason=reason,
        )

        return override_request_routing_body_type_0
