from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_staff_health_response_200_gateway_long_polls import (
        GetStaffHealthResponse200GatewayLongPolls,
    )


T = TypeVar("T", bound="GetStaffHealthResponse200Gateway")


@_attrs_define
class GetStaffHealthResponse200Gateway:
    """
    Attributes:
        long_polls (GetStaffHealthResponse200GatewayLongPolls):
    """

    long_polls: GetStaffHealthResponse200GatewayLongPolls

    def to_dict(self) -> dict[str, Any]:
        long_polls = self.long_polls.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "long_polls": long_polls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_staff_health_response_200_gateway_long_polls import (
            GetStaffHealthResponse200GatewayLongPolls,
        )

        d = dict(src_dict)
        long_polls = GetStaffHealthResponse200GatewayLongPolls.from_dict(
            d.pop("long_polls")
        )

        get_staff_health_response_200_gateway = cls(
            long_polls=long_polls,
        )

        return get_staff_health_response_200_gateway
