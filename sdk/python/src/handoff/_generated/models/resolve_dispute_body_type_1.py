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

T = TypeVar("T", bound="ResolveDisputeBodyType1")


@_attrs_define
class ResolveDisputeBodyType1:
    """
    Attributes:
        outcome (Literal['provider']):
        reason (str):
    """

    outcome: Literal["provider"]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = cast(Literal["provider"], d.pop("outcome"))
        if outcome != "provider":
            raise ValueError(f"outcome must match const 'provider', got '{outcome}'")

        reason = d.pop("reason")

        resolve_dispute_body_type_1 = cls(
            outcome=outcome,
            reason=reason,
        )

        return resolve_dispute_body_type_1
