from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SendMessageBody")


@_attrs_define
class SendMessageBody:
    """
    Attributes:
        message (str):
        attachments (list[str] | Unset):
    """

    message: str
    attachments: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        attachments: list[str] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = self.attachments

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )
        if attachments is not UNSET:
            field_dict["attachments"] = attachments

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message = d.pop("message")

        attachments = cast(list[str], d.pop("attachments", UNSET))

        send_message_body = cls(
            message=message,
            attachments=attachments,
        )

        return send_message_body
