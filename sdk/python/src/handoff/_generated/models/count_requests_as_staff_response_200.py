from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.count_requests_as_staff_response_200_by_routing_state import (
        CountRequestsAsStaffResponse200ByRoutingState,
    )
    from ..models.count_requests_as_staff_response_200_by_status import (
        CountRequestsAsStaffResponse200ByStatus,
    )


T = TypeVar("T", bound="CountRequestsAsStaffResponse200")


@_attrs_define
class CountRequestsAsStaffResponse200:
    """
    Attributes:
        object_ (Literal['request_counts']):
        total (int):
        by_status (CountRequestsAsStaffResponse200ByStatus):
        by_routing_state (CountRequestsAsStaffResponse200ByRoutingState):
    """

    object_: Literal["request_counts"]
    total: int
    by_status: CountRequestsAsStaffResponse200ByStatus
    by_routing_state: CountRequestsAsStaffResponse200ByRoutingState

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        total = self.total

        by_status = self.by_status.to_dict()

        by_routing_state = self.by_routing_state.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "total": total,
                "by_status": by_status,
                "by_routing_state": by_routing_state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.count_requests_as_staff_response_200_by_routing_state import (
            CountRequestsAsStaffResponse200ByRoutingState,
        )
        from ..models.count_requests_as_staff_response_200_by_status import (
            CountRequestsAsStaffResponse200ByStatus,
        )

        d = dict(src_dict)
        object_ = cast(Literal["request_counts"], d.pop("object"))
        if object_ != "request_counts":
            raise ValueError(
                f"object must match const 'request_counts', got '{object_}'"
            )

        total = d.pop("total")

        by_status = CountRequestsAsStaffResponse200ByStatus.from_dict(
            d.pop("by_status")
        )

        by_routing_state = CountRequestsAsStaffResponse200ByRoutingState.from_dict(
            d.pop("by_routing_state")
        )

        count_requests_as_staff_response_200 = cls(
            object_=object_,
            total=total,
            by_status=by_status,
            by_routing_state=by_routing_state,
        )

        return count_requests_as_staff_response_200
