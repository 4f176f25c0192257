from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.get_dispute_as_staff_response_200_resolution_type_0_outcome import (
    GetDisputeAsStaffResponse200ResolutionType0Outcome,
    check_get_dispute_as_staff_response_200_resolution_type_0_outcome,
)

T = TypeVar("T", bound="GetDisputeAsStaffResponse200ResolutionType0")


@_attrs_define
class GetDisputeAsStaffResponse200ResolutionType0:
    """
    Attributes:
        outcome (GetDisputeAsStaffResponse200ResolutionType0Outcome):
        reason (str):
        customer_share_percent (int | None):
        resolved_at (datetime.datetime):
    """

    outcome: GetDisputeAsStaffResponse200ResolutionType0Outcome
    reason: str
    customer_share_percent: int | None
    resolved_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        outcome: str = self.outcome

        reason = self.reason

        customer_share_percent: int | None
        customer_share_percent = self.customer_share_percent

        resolved_at = self.resolved_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
                "reason": reason,
                "customer_share_percent": customer_share_percent,
                "resolved_at": resolved_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = check_get_dispute_as_staff_response_200_resolution_type_0_outcome(
            d.pop("outcome")
        )

        reason = d.pop("reason")

        def _parse_customer_share_percent(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        customer_share_percent = _parse_customer_share_percent(
            d.pop("customer_share_percent")
        )

        resolved_at = datetime.datetime.fromisoformat(d.pop("resolved_at"))

        get_dispute_as_staff_response_200_resolution_type_0 = cls(
            outcome=outcome,
            reason=reason,
            customer_share_percent=customer_share_percent,
            resolved_at=resolved_at,
        )

        return get_dispute_as_staff_response_200_resolution_type_0
