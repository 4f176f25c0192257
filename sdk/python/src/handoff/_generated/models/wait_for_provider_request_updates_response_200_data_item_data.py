from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.wait_for_provider_request_updates_response_200_data_item_data_object import (
        WaitForProviderRequestUpdatesResponse200DataItemDataObject,
    )


T = TypeVar("T", bound="WaitForProviderRequestUpdatesResponse200DataItemData")


@_attrs_define
class WaitForProviderRequestUpdatesResponse200DataItemData:
    """
    Attributes:
        request_id (str):
        sequence (int):
        object_ (WaitForProviderRequestUpdatesResponse200DataItemDataObject):
    """

    request_id: str
    sequence: int
    object_: WaitForProviderRequestUpdatesResponse200DataItemDataObject

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
        from ..models.wait_for_provider_request_updates_response_200_data_item_data_object import (
            WaitForProviderRequestUpdatesResponse200DataItemDataObject,
        )

        d = dict(src_dict)
        request_id = d.pop("request_id")

        sequence = d.pop("sequence")

        object_ = WaitForProviderRequestUpdatesResponse200DataItemDataObject.from_dict(
            d.pop("object")
        )

        wait_for_provider_request_updates_response_200_data_item_data = cls(
            request_id=request_id,
            sequence=sequence,
            object_=object_,
        )

        return wait_for_provider_request_updates_response_200_data_item_data
