from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.open_dispute_body_currency import (
    OpenDisputeBodyCurrency,
    check_open_dispute_body_currency,
)
from ..models.open_dispute_body_kind import (
    OpenDisputeBodyKind,
    check_open_dispute_body_kind,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="OpenDisputeBody")


@_attrs_define
class OpenDisputeBody:
    """
    Attributes:
        kind (OpenDisputeBodyKind):
        reason (str):
        milestone_id (str | Unset):
        amount (float | Unset):
        currency (OpenDisputeBodyCurrency | Unset): ISO 4217 currency code; letters in any case are accepted (`eur` is
            `EUR`) and the code is stored and returned upper case.
    """

    kind: OpenDisputeBodyKind
    reason: str
    milestone_id: str | Unset = UNSET
    amount: float | Unset = UNSET
    currency: OpenDisputeBodyCurrency | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        reason = self.reason

        milestone_id = self.milestone_id

        amount = self.amount

        currency: str | Unset = UNSET
        if not isinstance(self.currency, Unset):
            currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "reason": reason,
            }
        )
        if milestone_id is not UNSET:
            field_dict["milestone_id"] = milestone_id
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = check_open_dispute_body_kind(d.pop("kind"))

        reason = d.pop("reason")

        milestone_id = d.pop("milestone_id", UNSET)

        amount = d.pop("amount", UNSET)

        _currency = d.pop("currency", UNSET)
        currency: OpenDisputeBodyCurrency | Unset
        if isinstance(_currency, Unset):
            currency = UNSET
        else:
            currency = check_open_dispute_body_currency(_currency)

        open_dispute_body = cls(
            kind=kind,
            reason=reason,
            milestone_id=milestone_id,
            amount=amount,
            currency=currency,
        )

        return open_dispute_body
