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
    from ..models.list_staff_request_files_response_200_data_item import (
        ListStaffRequestFilesResponse200DataItem,
    )


T = TypeVar("T", bound="ListStaffRequestFilesResponse200")


@_attrs_define
class ListStaffRequestFilesResponse200:
    """
    Attributes:
        object_ (Literal['list']):
        data (list[ListStaffRequestFilesResponse200DataItem]):
        has_more (bool):
    """

    object_: Literal["list"]
    data: list[ListStaffRequestFilesResponse200DataItem]
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "data": data,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_staff_request_files_response_200_data_item import (
            ListStaffRequestFilesResponse200DataItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["list"], d.pop("object"))
        if object_ != "list":
            raise ValueError(f"object must match const 'list', got '{object_}'")

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = ListStaffRequestFilesResponse200DataItem.from_dict(
                data_item_data
            )

            data.append(data_item)

        has_more = d.pop("has_more")

        list_staff_request_files_response_200 = cls(
            object_=object_,
            data=data,
            has_more=has_more,
        )

        return list_staff_request_files_response_200
