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

T = TypeVar("T", bound="ResolveDisputeBodyType0")


@_attrs_define
class ResolveDisputeBodyType0:
    """
    Attributes:
        outcome (Literal['customer']):
        reason (str):
    """

    outcome: Literal["customer"]
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
        outcome = cast(Literal["customer"], d.pop("outcome"))
        if outcome != "customer":
            raise ValueError(f"outcome must match const 'customer', got '{outcome}'")

        reason = d.pop("reason")

        resolve_dispute_body_type_0 = cls(
            outcome=outcome,
            reason=reason,
        )

        return resolve_dispute_body_type_0
