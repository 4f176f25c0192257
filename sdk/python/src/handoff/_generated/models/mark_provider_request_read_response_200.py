from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="MarkProviderRequestReadResponse200")


@_attrs_define
class MarkProviderRequestReadResponse200:
    """
    Attributes:
        object_ (Literal['request_read']):
        request_id (str):
        unread_messages (Literal[0]):
    """

    object_: Literal["request_read"]
    request_id: str
    unread_messages: Literal[0]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        request_id = self.request_id

        unread_messages = self.unread_messages

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "request_id": request_id,
                "unread_messages": unread_messages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["request_read"], d.pop("object"))
        if object_ != "request_read":
            raise ValueError(f"object must match const 'request_read', got '{object_}'")

        request_id = d.pop("request_id")

        unread_messages = cast(Literal[0], d.pop("unread_messages"))
        if unread_messages != 0:
            raise ValueError(
                f"unread_messages must match const 0, got '{unread_messages}'"
            )

        mark_provider_request_read_response_200 = cls(
            object_=object_,
            request_id=request_id,
            unread_messages=unread_messages,
        )

        return mark_provider_request_read_response_200
