from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetRequestAsStaffResponse200Cancellation")


@_attrs_define
class GetRequestAsStaffResponse200Cancellation:
    """
    Attributes:
        by (Literal['customer']):
        reason (None | str): The reason the agent gave, if any.
        at (datetime.datetime):
    """

    by: Literal["customer"]
    reason: None | str
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        by = self.by

        reason: None | str
        reason = self.reason

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "by": by,
                "reason": reason,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        by = cast(Literal["customer"], d.pop("by"))
        if by != "customer":
            raise ValueError(f"by must match const 'customer', got '{by}'")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        get_request_as_staff_response_200_cancellation = cls(
            by=by,
            reason=reason,
            at=at,
        )

        return get_request_as_staff_response_200_cancellation
