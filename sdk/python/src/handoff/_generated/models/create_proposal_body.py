from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_proposal_body_currency import (
    CreateProposalBodyCurrency,
    check_create_proposal_body_currency,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_proposal_body_milestones_item import (
        CreateProposalBodyMilestonesItem,
    )


T = TypeVar("T", bound="CreateProposalBody")


@_attrs_define
class CreateProposalBody:
    """
    Attributes:
        message (str):
        amount (float):
        currency (CreateProposalBodyCurrency | Unset): ISO 4217 currency code; letters in any case are accepted (`eur`
            is `EUR`) and the code is stored and returned upper case.
        estimated_days (int | Unset):
        milestones (list[CreateProposalBodyMilestonesItem] | Unset):
    """

    message: str
    amount: float
    currency: CreateProposalBodyCurrency | Unset = UNSET
    estimated_days: int | Unset = UNSET
    milestones: list[CreateProposalBodyMilestonesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        amount = self.amount

        currency: str | Unset = UNSET
        if not isinstance(self.currency, Unset):
            currency = self.currency

        estimated_days = self.estimated_days

        milestones: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.milestones, Unset):
            milestones = []
            for milestones_item_data in self.milestones:
                milestones_item = milestones_item_data.to_dict()
                milestones.append(milestones_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
                "amount": amount,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if estimated_days is not UNSET:
            field_dict["estimated_days"] = estimated_days
        if milestones is not UNSET:
            field_dict["milestones"] = milestones

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_proposal_body_milestones_item import (
            CreateProposalBodyMilestonesItem,
        )

        d = dict(src_dict)
        message = d.pop("message")

        amount = d.pop("amount")

        _currency = d.pop("currency", UNSET)
        currency: CreateProposalBodyCurrency | Unset
        if isinstance(_currency, Unset):
            currency = UNSET
        else:
            currency = check_create_proposal_body_currency(_currency)

        estimated_days = d.pop("estimated_days", UNSET)

        _milestones = d.pop("milestones", UNSET)
        milestones: list[CreateProposalBodyMilestonesItem] | Unset = UNSET
        if _milestones is not UNSET:
            milestones = []
            for milestones_item_data in _milestones:
                milestones_item = CreateProposalBodyMilestonesItem.from_dict(
                    milestones_item_data
                )

                milestones.append(milestones_item)

        create_proposal_body = cls(
            message=message,
            amount=amount,
            currency=currency,
            estimated_days=estimated_days,
            milestones=milestones,
        )

        return create_proposal_body
