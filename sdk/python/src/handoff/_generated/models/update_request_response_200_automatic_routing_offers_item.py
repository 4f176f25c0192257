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

from ..models.update_request_response_200_automatic_routing_offers_item_by import (
    UpdateRequestResponse200AutomaticRoutingOffersItemBy,
    check_update_request_response_200_automatic_routing_offers_item_by,
)
from ..models.update_request_response_200_automatic_routing_offers_item_status import (
    UpdateRequestResponse200AutomaticRoutingOffersItemStatus,
    check_update_request_response_200_automatic_routing_offers_item_status,
)

T = TypeVar("T", bound="UpdateRequestResponse200AutomaticRoutingOffersItem")


@_attrs_define
class UpdateRequestResponse200AutomaticRoutingOffersItem:
    """
    Attributes:
        object_ (Literal['routing_offer']):
        id (str):
        provider_id (str):
        status (UpdateRequestResponse200AutomaticRoutingOffersItemStatus):
        by (UpdateRequestResponse200AutomaticRoutingOffersItemBy):
        offered_at (datetime.datetime):
        respond_by (datetime.datetime):
        decided_at (datetime.datetime | None):
        reason (None | str): Why it was declined or withdrawn (the provider’s or staff’s words).
    """

    object_: Literal["routing_offer"]
    id: str
    provider_id: str
    status: UpdateRequestResponse200AutomaticRoutingOffersItemStatus
    by: UpdateRequestResponse200AutomaticRoutingOffersItemBy
    offered_at: datetime.datetime
    respond_by: datetime.datetime
    decided_at: datetime.datetime | None
    reason: None | str

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        provider_id = self.provider_id

        status: str = self.status

        by: str = self.by

        offered_at = self.offered_at.isoformat()

        respond_by = self.respond_by.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        reason: None | str
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "provider_id": provider_id,
                "status": status,
                "by": by,
                "offered_at": offered_at,
                "respond_by": respond_by,
                "decided_at": decided_at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["routing_offer"], d.pop("object"))
        if object_ != "routing_offer":
            raise ValueError(
                f"object must match const 'routing_offer', got '{object_}'"
            )

        id = d.pop("id")

        provider_id = d.pop("provider_id")

        status = check_update_request_response_200_automatic_routing_offers_item_status(
            d.pop("status")
        )

        by = check_update_request_response_200_automatic_routing_offers_item_by(
            d.pop("by")
        )

        offered_at = datetime.datetime.fromisoformat(d.pop("offered_at"))

        respond_by = datetime.datetime.fromisoformat(d.pop("respond_by"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        update_request_response_200_automatic_routing_offers_item = cls(
            object_=object_,
            id=id,
            provider_id=provider_id,
            status=status,
            by=by,
            offered_at=offered_at,
            respond_by=respond_by,
            decided_at=decided_at,
            reason=reason,
        )

        return update_request_response_200_automatic_routing_offers_item
