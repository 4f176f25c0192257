from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateMilestoneProgressBody")


@_attrs_define
class UpdateMilestoneProgressBody:
    """
    Attributes:
        progress (int):
        note (str | Unset):
    """

    progress: int
    note: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        progress = self.progress

        note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "progress": progress,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        progress = d.pop("progress")

        note = d.pop("note", UNSET)

        update_milestone_progress_body = cls(
            progress=progress,
            note=note,
        )

        return update_milestone_progress_body
