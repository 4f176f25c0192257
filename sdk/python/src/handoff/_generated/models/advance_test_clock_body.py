from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AdvanceTestClockBody")


@_attrs_define
class AdvanceTestClockBody:
    """
    Attributes:
        frozen_time (datetime.datetime): The clock's new time: later than its current `frozen_time`, by at most two
            years. Every deadline of its requests at or before it fires, soonest first.
    """

    frozen_time: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        frozen_time = self.frozen_time.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "frozen_time": frozen_time,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        frozen_time = datetime.datetime.fromisoformat(d.pop("frozen_time"))

        advance_test_clock_body = cls(
            frozen_time=frozen_time,
        )

        return advance_test_clock_body
