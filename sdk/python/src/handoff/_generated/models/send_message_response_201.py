from __future__ import annotations

import datetime
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

from ..models.send_message_response_201_author_role import (
    SendMessageResponse201AuthorRole,
    check_send_message_response_201_author_role,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.send_message_response_201_attachments_item import (
        SendMessageResponse201AttachmentsItem,
    )


T = TypeVar("T", bound="SendMessageResponse201")


@_attrs_define
class SendMessageResponse201:
    """
    Attributes:
        object_ (Literal['message']):
        id (str):
        request_id (str):
        author_role (SendMessageResponse201AuthorRole):
        message (str):
        created_at (datetime.datetime):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
        attachments (list[SendMessageResponse201AttachmentsItem] | Unset):
    """

    object_: Literal["message"]
    id: str
    request_id: str
    author_role: SendMessageResponse201AuthorRole
    message: str
    created_at: datetime.datetime
    livemode: bool | Unset = UNSET
    attachments: list[SendMessageResponse201AttachmentsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        author_role: str = self.author_role

        message = self.message

        created_at = self.created_at.isoformat()

        livemode = self.livemode

        attachments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attachments, Unset):
            attachments = []
            for attachments_item_data in self.attachments:
                attachments_item = attachments_item_data.to_dict()
                attachments.append(attachments_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "request_id": request_id,
                "author_role": author_role,
                "message": message,
                "created_at": created_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode
        if attachments is not UNSET:
            field_dict["attachments"] = attachments

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.send_message_response_201_attachments_item import (
            SendMessageResponse201AttachmentsItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["message"], d.pop("object"))
        if object_ != "message":
            raise ValueError(f"object must match const 'message', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        author_role = check_send_message_response_201_author_role(d.pop("author_role"))

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        livemode = d.pop("livemode", UNSET)

        _attachments = d.pop("attachments", UNSET)
        attachments: list[SendMessageResponse201AttachmentsItem] | Unset = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = SendMessageResponse201AttachmentsItem.from_dict(
                    attachments_item_data
                )

                attachments.append(attachments_item)

        send_message_response_201 = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            author_role=author_role,
            message=message,
            created_at=created_at,
            livemode=livemode,
            attachments=attachments,
        )

        return send_message_response_201
