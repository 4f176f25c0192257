from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_event_response_200_type import (
    GetEventResponse200Type,
    check_get_event_response_200_type,
)

if TYPE_CHECKING:
    from ..models.get_event_response_200_data import GetEventResponse200Data


T = TypeVar("T", bound="GetEventResponse200")


@_attrs_define
class GetEventResponse200:
    """
    Attributes:
        id (str):
        type_ (GetEventResponse200Type):
        timestamp (datetime.datetime):
        livemode (bool): Extension: false for an event of a test request (made with a `hk_test_` key); test events go
            only to endpoints registered with a test key. Default: True.
        data (GetEventResponse200Data):
    """

    id: str
    type_: GetEventResponse200Type
    timestamp: datetime.datetime
    data: GetEventResponse200Data
    livemode: bool = True

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_: str = self.type_

        timestamp = self.timestamp.isoformat()

        livemode = self.livemode

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "timestamp": timestamp,
                "livemode": livemode,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_event_response_200_data import GetEventResponse200Data

        d = dict(src_dict)
        id = d.pop("id")

        type_ = check_get_event_response_200_type(d.pop("type"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        livemode = d.pop("livemode")

        data = GetEventResponse200Data.from_dict(d.pop("data"))

        get_event_response_200 = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            livemode=livemode,
            data=data,
        )

        return get_event_response_200
