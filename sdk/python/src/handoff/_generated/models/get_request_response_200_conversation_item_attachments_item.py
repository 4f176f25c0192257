from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_request_response_200_conversation_item_attachments_item_content_type import (
    GetRequestResponse200ConversationItemAttachmentsItemContentType,
    check_get_request_response_200_conversation_item_attachments_item_content_type,
)

T = TypeVar("T", bound="GetRequestResponse200ConversationItemAttachmentsItem")


@_attrs_define
class GetRequestResponse200ConversationItemAttachmentsItem:
    """
    Attributes:
        id (str):
        filename (str):
        size (int):
        content_type (GetRequestResponse200ConversationItemAttachmentsItemContentType):
        sha256 (str):
    """

    id: str
    filename: str
    size: int
    content_type: GetRequestResponse200ConversationItemAttachmentsItemContentType
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

        content_type = check_get_request_response_200_conversation_item_attachments_item_content_type(
            d.pop("content_type")
        )

        sha256 = d.pop("sha256")

        get_request_response_200_conversation_item_attachments_item = cls(
            id=id,
            filename=filename,
            size=size,
            content_type=content_type,
            sha256=sha256,
        )

        return get_request_response_200_conversation_item_attachments_item
