from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_readiness_response_503_status import (
    GetReadinessResponse503Status,
    check_get_readiness_response_503_status,
)

T = TypeVar("T", bound="GetReadinessResponse503")


@_attrs_define
class GetReadinessResponse503:
    """
    Attributes:
        status (GetReadinessResponse503Status):
    """

    status: GetReadinessResponse503Status

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
        status = check_get_readiness_response_503_status(d.pop("status"))

        get_readiness_response_503 = cls(
            status=status,
        )

        return get_readiness_response_503
