from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_milestone_body_currency import (
    CreateMilestoneBodyCurrency,
    check_create_milestone_body_currency,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateMilestoneBody")


@_attrs_define
class CreateMilestoneBody:
    """
    Attributes:
        title (str):
        description (str | Unset):
        amount (float | Unset):
        currency (CreateMilestoneBodyCurrency | Unset): ISO 4217 currency code; letters in any case are accepted (`eur`
            is `EUR`) and the code is stored and returned upper case.
        due_at (datetime.datetime | Unset):
    """

    title: str
    description: str | Unset = UNSET
    amount: float | Unset = UNSET
    currency: CreateMilestoneBodyCurrency | Unset = UNSET
    due_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        description = self.description

        amount = self.amount

        currency: str | Unset = UNSET
        if not isinstance(self.currency, Unset):
            currency = self.currency

        due_at: str | Unset = UNSET
        if not isinstance(self.due_at, Unset):
            due_at = self.due_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if due_at is not UNSET:
            field_dict["due_at"] = due_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        description = d.pop("description", UNSET)

        amount = d.pop("amount", UNSET)

        _currency = d.pop("currency", UNSET)
        currency: CreateMilestoneBodyCurrency | Unset
        if isinstance(_currency, Unset):
            currency = UNSET
        else:
            currency = check_create_milestone_body_currency(_currency)

        _due_at = d.pop("due_at", UNSET)
        due_at: datetime.datetime | Unset
        if isinstance(_due_at, Unset):
            due_at = UNSET
        else:
            due_at = datetime.datetime.fromisoformat(_due_at)

        create_milestone_body = cls(
            title=title,
            description=description,
            amount=amount,
            currency=currency,
            due_at=due_at,
        )

        return create_milestone_body
