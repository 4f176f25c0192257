from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.list_deliverables_response_200_data_item_files_item_content_type import (
    ListDeliverablesResponse200DataItemFilesItemContentType,
    check_list_deliverables_response_200_data_item_files_item_content_type,
)

T = TypeVar("T", bound="ListDeliverablesResponse200DataItemFilesItem")


@_attrs_define
class ListDeliverablesResponse200DataItemFilesItem:
    """
    Attributes:
        id (str):
        filename (str):
        size (int):
        content_type (ListDeliverablesResponse200DataItemFilesItemContentType):
        sha256 (str):
    """

    id: str
    filename: str
    size: int
    content_type: ListDeliverablesResponse200DataItemFilesItemContentType
    sha256: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        filename = self.filename

        size = self.size

        content_type: str = self.content_type

        sha256 = self.sha256

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "filename": filename,
                "size": size,
                "content_type": content_type,
                "sha256": sha256,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        filename = d.pop("filename")

        size = d.pop("size")

        content_type = (
            check_list_deliverables_response_200_data_item_files_item_content_type(
                d.pop("content_type")
            )
        )

        sha256 = d.pop("sha256")

        list_deliverables_response_200_data_item_files_item = cls(
            id=id,
            filename=filename,
            size=size,
            content_type=content_type,
            sha256=sha256,
        )

        return list_deliverables_response_200_data_item_files_item
