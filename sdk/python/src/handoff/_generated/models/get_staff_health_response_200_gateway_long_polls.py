from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetStaffHealthResponse200GatewayLongPolls")


@_attrs_define
class GetStaffHealthResponse200GatewayLongPolls:
    """
    Attributes:
        waiting (int):
        max_per_process (int):
        max_per_key (int):
    """

    waiting: int
    max_per_process: int
    max_per_key: int

    def to_dict(self) -> dict[str, Any]:
        waiting = self.waiting

        max_per_process = self.max_per_process

        max_per_key = self.max_per_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "waiting": waiting,
                "max_per_process": max_per_process,
                "max_per_key": max_per_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        waiting = d.pop("waiting")

        max_per_process = d.pop("max_per_process")

        max_per_key = d.pop("max_per_key")

        get_staff_health_response_200_gateway_long_polls = cls(
            waiting=waiting,
            max_per_process=max_per_process,
            max_per_key=max_per_key,
        )

        return get_staff_health_response_200_gateway_long_polls
