from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_readiness_response_200_status import (
    GetReadinessResponse200Status,
    check_get_readiness_response_200_status,
)

T = TypeVar("T", bound="GetReadinessResponse200")


@_attrs_define
class GetReadinessResponse200:
    """
    Attributes:
        status (GetReadinessResponse200Status):
    """

    status: GetReadinessResponse200Status

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = check_get_readiness_response_200_status(d.pop("status"))

        get_readiness_response_200 = cls(
            status=status,
        )

        return get_readiness_response_200
