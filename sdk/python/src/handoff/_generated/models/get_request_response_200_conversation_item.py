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

from ..models.get_request_response_200_conversation_item_author_role import (
    GetRequestResponse200ConversationItemAuthorRole,
    check_get_request_response_200_conversation_item_author_role,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.get_request_response_200_conversation_item_attachments_item import (
        GetRequestResponse200ConversationItemAttachmentsItem,
    )


T = TypeVar("T", bound="GetRequestResponse200ConversationItem")


@_attrs_define
class GetRequestResponse200ConversationItem:
    """
    Attributes:
        object_ (Literal['message']):
        id (str):
        request_id (str):
        author_role (GetRequestResponse200ConversationItemAuthorRole):
        message (str):
        created_at (datetime.datetime):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
        attachments (list[GetRequestResponse200ConversationItemAttachmentsItem] | Unset):
    """

    object_: Literal["message"]
    id: str
    request_id: str
    author_role: GetRequestResponse200ConversationItemAuthorRole
    message: str
    created_at: datetime.datetime
    livemode: bool | Unset = UNSET
    attachments: list[GetRequestResponse200ConversationItemAttachmentsItem] | Unset = (
        UNSET
    )

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
        from ..models.get_request_response_200_conversation_item_attachments_item import (
            GetRequestResponse200ConversationItemAttachmentsItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["message"], d.pop("object"))
        if object_ != "message":
            raise ValueError(f"object must match const 'message', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        author_role = check_get_request_response_200_conversation_item_author_role(
            d.pop("author_role")
        )

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        livemode = d.pop("livemode", UNSET)

        _attachments = d.pop("attachments", UNSET)
        attachments: (
            list[GetRequestResponse200ConversationItemAttachmentsItem] | Unset
        ) = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = (
                    GetRequestResponse200ConversationItemAttachmentsItem.from_dict(
                        attachments_item_data
                    )
                )

                attachments.append(attachments_item)

        get_request_response_200_conversation_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            author_role=author_role,
            message=message,
            created_at=created_at,
            livemode=livemode,
            attachments=attachments,
        )

        return get_request_response_200_conversation_item
