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

T = TypeVar("T", bound="OverrideRequestRoutingBodyType2")


@_attrs_define
class OverrideRequestRoutingBodyType2:
    """
    Attributes:
        action (Literal['stop']): Stop automatic routing of this request: a pending offer is withdrawn.
        reason (str):
    """

    action: Literal["stop"]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = cast(Literal["stop"], d.pop("action"))
        if action != "stop":
            raise ValueError(f"action must match const 'stop', got '{action}'")

        reason = d.pop("reason")

        override_request_routing_body_type_2 = cls(
            action=action,
            reason=reason,
        )

        return override_request_routing_body_type_2
