from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.wait_for_request_updates_response_200_data_item_type import (
    WaitForRequestUpdatesResponse200DataItemType,
    check_wait_for_request_updates_response_200_data_item_type,
)

if TYPE_CHECKING:
    from ..models.wait_for_request_updates_response_200_data_item_data import (
        WaitForRequestUpdatesResponse200DataItemData,
    )


T = TypeVar("T", bound="WaitForRequestUpdatesResponse200DataItem")


@_attrs_define
class WaitForRequestUpdatesResponse200DataItem:
    """
    Attributes:
        id (str):
        type_ (WaitForRequestUpdatesResponse200DataItemType):
        timestamp (datetime.datetime):
        livemode (bool): Extension: false for an event of a test request (made with a `hk_test_` key); test events go
            only to endpoints registered with a test key. Default: True.
        data (WaitForRequestUpdatesResponse200DataItemData):
    """

    id: str
    type_: WaitForRequestUpdatesResponse200DataItemType
    timestamp: datetime.datetime
    data: WaitForRequestUpdatesResponse200DataItemData
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
        from ..models.wait_for_request_updates_response_200_data_item_data import (
            WaitForRequestUpdatesResponse200DataItemData,
        )

        d = dict(src_dict)
        id = d.pop("id")

        type_ = check_wait_for_request_updates_response_200_data_item_type(
            d.pop("type")
        )

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        livemode = d.pop("livemode")

        data = WaitForRequestUpdatesResponse200DataItemData.from_dict(d.pop("data"))

        wait_for_request_updates_response_200_data_item = cls(
            id=id,
            type_=type_,
            timestamp=timestamp,
            livemode=livemode,
            data=data,
        )

        return wait_for_request_updates_response_200_data_item
