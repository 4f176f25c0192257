from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.send_message_response_201_attachments_item_content_type import (
    SendMessageResponse201AttachmentsItemContentType,
    check_send_message_response_201_attachments_item_content_type,
)

T = TypeVar("T", bound="SendMessageResponse201AttachmentsItem")


@_attrs_define
class SendMessageResponse201AttachmentsItem:
    """
    Attributes:
        id (str):
        filename (str):
        size (int):
        content_type (SendMessageResponse201AttachmentsItemContentType):
        sha256 (str):
    """

    id: str
    filename: str
    size: int
    content_type: SendMessageResponse201AttachmentsItemContentType
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

        content_type = check_send_message_response_201_attachments_item_content_type(
            d.pop("content_type")
        )

        sha256 = d.pop("sha256")

        send_message_response_201_attachments_item = cls(
            id=id,
            filename=filename,
            size=size,
            content_type=content_type,
            sha256=sha256,
        )

        return send_message_response_201_attachments_item
