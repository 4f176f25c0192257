from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateTestClockBody")


@_attrs_define
class CreateTestClockBody:
    """
    Attributes:
        frozen_time (datetime.datetime | Unset): Where the clock starts (RFC 3339); now when left out.
        name (str | Unset):
    """

    frozen_time: datetime.datetime | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        frozen_time: str | Unset = UNSET
        if not isinstance(self.frozen_time, Unset):
            frozen_time = self.frozen_time.isoformat()

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if frozen_time is not UNSET:
            field_dict["frozen_time"] = frozen_time
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _frozen_time = d.pop("frozen_time", UNSET)
        frozen_time: datetime.datetime | Unset
        if isinstance(_frozen_time, Unset):
            frozen_time = UNSET
        else:
            frozen_time = datetime.datetime.fromisoformat(_frozen_time)

        name = d.pop("name", UNSET)

        create_test_clock_body = cls(
            frozen_time=frozen_time,
            name=name,
        )

        return create_test_clock_body
