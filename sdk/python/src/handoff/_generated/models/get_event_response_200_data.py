from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_event_response_200_data_object import (
        GetEventResponse200DataObject,
    )


T = TypeVar("T", bound="GetEventResponse200Data")


@_attrs_define
class GetEventResponse200Data:
    """
    Attributes:
        request_id (str):
        sequence (int):
        object_ (GetEventResponse200DataObject):
    """

    request_id: str
    sequence: int
    object_: GetEventResponse200DataObject

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
        from ..models.get_event_response_200_data_object import (
            GetEventResponse200DataObject,
        )

        d = dict(src_dict)
        request_id = d.pop("request_id")

        sequence = d.pop("sequence")

        object_ = GetEventResponse200DataObject.from_dict(d.pop("object"))

        get_event_response_200_data = cls(
            request_id=request_id,
            sequence=sequence,
            object_=object_,
        )

        return get_event_response_200_data
