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

from ..models.send_provider_message_response_201_author_role import (
    SendProviderMessageResponse201AuthorRole,
    check_send_provider_message_response_201_author_role,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.send_provider_message_response_201_attachments_item import (
        SendProviderMessageResponse201AttachmentsItem,
    )


T = TypeVar("T", bound="SendProviderMessageResponse201")


@_attrs_define
class SendProviderMessageResponse201:
    """
    Attributes:
        object_ (Literal['message']):
        id (str):
        request_id (str):
        author_role (SendProviderMessageResponse201AuthorRole):
        message (str):
        created_at (datetime.datetime):
        mine (bool): True when the calling provider wrote the message; false for every other author, another provider of
            the request included, and for provider messages stored before authors were kept.
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
        attachments (list[SendProviderMessageResponse201AttachmentsItem] | Unset):
    """

    object_: Literal["message"]
    id: str
    request_id: str
    author_role: SendProviderMessageResponse201AuthorRole
    message: str
    created_at: datetime.datetime
    mine: bool
    livemode: bool | Unset = UNSET
    attachments: list[SendProviderMessageResponse201AttachmentsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        author_role: str = self.author_role

        message = self.message

        created_at = self.created_at.isoformat()

        mine = self.mine

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
                "mine": mine,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode
        if attachments is not UNSET:
            field_dict["attachments"] = attachments

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.send_provider_message_response_201_attachments_item import (
            SendProviderMessageResponse201AttachmentsItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["message"], d.pop("object"))
        if object_ != "message":
            raise ValueError(f"object must match const 'message', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        author_role = check_send_provider_message_response_201_author_role(
            d.pop("author_role")
        )

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        mine = d.pop("mine")

        livemode = d.pop("livemode", UNSET)

        _attachments = d.pop("attachments", UNSET)
        attachments: list[SendProviderMessageResponse201AttachmentsItem] | Unset = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = (
                    SendProviderMessageResponse201AttachmentsItem.from_dict(
                        attachments_item_data
                    )
                )

                attachments.append(attachments_item)

        send_provider_message_response_201 = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            author_role=author_role,
            message=message,
            created_at=created_at,
            mine=mine,
            livemode=livemode,
            attachments=attachments,
        )

        return send_provider_message_response_201
