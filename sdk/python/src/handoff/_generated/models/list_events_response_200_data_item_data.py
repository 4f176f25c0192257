from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.list_events_response_200_data_item_data_object import (
        ListEventsResponse200DataItemDataObject,
    )


T = TypeVar("T", bound="ListEventsResponse200DataItemData")


@_attrs_define
class ListEventsResponse200DataItemData:
    """
    Attributes:
        request_id (str):
        sequence (int):
        object_ (ListEventsResponse200DataItemDataObject):
    """

    request_id: str
    sequence: int
    object_: ListEventsResponse200DataItemDataObject

    def to_dict(self) -> dict[str, Any]:
        request_id = self.request_id

        sequence = self.sequence

        object_ = self.object_.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "request_id": request_id,
                "sequence": sequence,
                "object": object_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_events_response_200_data_item_data_object import (
            ListEventsResponse200DataItemDataObject,
        )

        d = dict(src_dict)
        request_id = d.pop("request_id")

        sequence = d.pop("sequence")

        object_ = ListEventsResponse200DataItemDataObject.from_dict(d.pop("object"))

        list_events_response_200_data_item_data = cls(
            request_id=request_id,
            sequence=sequence,
            object_=object_,
        )

        return list_events_response_200_data_item_data
