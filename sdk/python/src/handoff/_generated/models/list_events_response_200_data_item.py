from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.list_events_response_200_data_item_type import (
    ListEventsResponse200DataItemType,
    check_list_events_response_200_data_item_type,
)

if TYPE_CHECKING:
    from ..models.list_events_response_200_data_item_data import (
        ListEventsResponse200DataItemData,
    )


T = TypeVar("T", bound="ListEventsResponse200DataItem")


@_attrs_define
class ListEventsResponse200DataItem:
    """
    Attributes:
        id (str):
        type_ (ListEventsResponse200DataItemType):
        timestamp (datetime.datetime):
        livemode (bool): Extension: false for an event of a test request (made with a `hk_test_` key); test events go
            only to endpoints registered with a test key. Default: True.
        data (ListEventsResponse200DataItemData):
    """

    id: str
    type_: ListEventsResponse200DataItemType
    timestamp: datetime.datetime
    data: ListEventsResponse200DataItemData
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
        from ..models.list_events_response_200_data_item_data import (
            ListEventsResponse200DataItemData,
        )

        d = dict(src_dict)
        id = d.pop("id")

        type_ = check_list_events_response_200_data_item_type(d.pop("type"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        livemode = d.pop("livemode")

        data = ListEventsResponse200DataItemData.from_dict(d.pop("data"))

        list_events_response_200_data_item = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            livemode=livemode,
            data=data,
        )

        return list_events_response_200_data_item
