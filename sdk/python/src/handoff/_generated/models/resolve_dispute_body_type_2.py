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

T = TypeVar("T", bound="ResolveDisputeBodyType2")


@_attrs_define
class ResolveDisputeBodyType2:
    """
    Attributes:
        outcome (Literal['split']):
        reason (str):
        customer_share_percent (int):
    """

    outcome: Literal["split"]
    reason: str
    customer_share_percent: int

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome

        reason = self.reason

        customer_share_percent = self.customer_share_percent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
                "reason": reason,
                "customer_share_percent": customer_share_percent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = cast(Literal["split"], d.pop("outcome"))
        if outcome != "split":
            raise ValueError(f"outcome must match const 'split', got '{outcome}'")

        reason = d.pop("reason")

        customer_share_percent = d.pop("customer_share_percent")

        resolve_dispute_body_type_2 = cls(
            outcome=outcome,
            reason=reason,
            customer_share_percent=customer_share_percent,
        )

        return resolve_dispute_body_type_2
