from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ListProviderProposalsResponse200DataItemMilestonesItem")


@_attrs_define
class ListProviderProposalsResponse200DataItemMilestonesItem:
    """
    Attributes:
        title (str):
        description (None | str):
        amount (float | None):
        due_in_days (int | None):
    """

    title: str
    description: None | str
    amount: float | None
    due_in_days: int | None

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        description: None | str
        description = self.description

        amount: float | None
        amount = self.amount

        due_in_days: int | None
        due_in_days = self.due_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "description": description,
                "amount": amount,
                "due_in_days": due_in_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_due_in_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        due_in_days = _parse_due_in_days(d.pop("due_in_days"))

        list_provider_proposals_response_200_data_item_milestones_item = cls(
            title=title,
            description=description,
            amount=amount,
            due_in_days=due_in_days,
        )

        return list_provider_proposals_response_200_data_item_milestones_item
