from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateProposalBodyMilestonesItem")


@_attrs_define
class CreateProposalBodyMilestonesItem:
    """
    Attributes:
        title (str):
        description (str | Unset):
        amount (float | Unset):
        due_in_days (int | Unset):
    """

    title: str
    description: str | Unset = UNSET
    amount: float | Unset = UNSET
    due_in_days: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        description = self.description

        amount = self.amount

        due_in_days = self.due_in_days

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
        if due_in_days is not UNSET:
            field_dict["due_in_days"] = due_in_days

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        description = d.pop("description", UNSET)

        amount = d.pop("amount", UNSET)

        due_in_days = d.pop("due_in_days", UNSET)

        create_proposal_body_milestones_item = cls(
            title=title,
            description=description,
            amount=amount,
            due_in_days=due_in_days,
        )

        return create_proposal_body_milestones_item
