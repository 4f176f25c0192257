from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.accept_offer_response_200_offer_type_0_status import (
    AcceptOfferResponse200OfferType0Status,
    check_accept_offer_response_200_offer_type_0_status,
)

T = TypeVar("T", bound="AcceptOfferResponse200OfferType0")


@_attrs_define
class AcceptOfferResponse200OfferType0:
    """
    Attributes:
        status (AcceptOfferResponse200OfferType0Status):
        offered_at (datetime.datetime):
        respond_by (datetime.datetime):
        decided_at (datetime.datetime | None):
    """

    status: AcceptOfferResponse200OfferType0Status
    offered_at: datetime.datetime
    respond_by: datetime.datetime
    decided_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        offered_at = self.offered_at.isoformat()

        respond_by = self.respond_by.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "offered_at": offered_at,
                "respond_by": respond_by,
                "decided_at": decided_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = check_accept_offer_response_200_offer_type_0_status(d.pop("status"))

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

        accept_offer_response_200_offer_type_0 = cls(
            status=status,
            offered_at=offered_at,
            respond_by=respond_by,
            decided_at=decided_at,
        )

        return accept_offer_response_200_offer_type_0
