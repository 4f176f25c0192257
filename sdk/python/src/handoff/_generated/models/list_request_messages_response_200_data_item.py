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

from ..models.list_request_messages_response_200_data_item_author_role import (
    ListRequestMessagesResponse200DataItemAuthorRole,
    check_list_request_messages_response_200_data_item_author_role,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.list_request_messages_response_200_data_item_attachments_item import (
        ListRequestMessagesResponse200DataItemAttachmentsItem,
    )


T = TypeVar("T", bound="ListRequestMessagesResponse200DataItem")


@_attrs_define
class ListRequestMessagesResponse200DataItem:
    """
    Attributes:
        object_ (Literal['message']):
        id (str):
        request_id (str):
        author_role (ListRequestMessagesResponse200DataItemAuthorRole):
        message (str):
        created_at (datetime.datetime):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
        attachments (list[ListRequestMessagesResponse200DataItemAttachmentsItem] | Unset):
    """

    object_: Literal["message"]
    id: str
    request_id: str
    author_role: ListRequestMessagesResponse200DataItemAuthorRole
    message: str
    created_at: datetime.datetime
    livemode: bool | Unset = UNSET
    attachments: list[ListRequestMessagesResponse200DataItemAttachmentsItem] | Unset = (
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
        from ..models.list_request_messages_response_200_data_item_attachments_item import (
            ListRequestMessagesResponse200DataItemAttachmentsItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["message"], d.pop("object"))
        if object_ != "message":
            raise ValueError(f"object must match const 'message', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        author_role = check_list_request_messages_response_200_data_item_author_role(
            d.pop("author_role")
        )

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        livemode = d.pop("livemode", UNSET)

        _attachments = d.pop("attachments", UNSET)
        attachments: (
            list[ListRequestMessagesResponse200DataItemAttachmentsItem] | Unset
        ) = UNSET
        if _attachments is not UNSET:
            attachments = []
            for attachments_item_data in _attachments:
                attachments_item = (
                    ListRequestMessagesResponse200DataItemAttachmentsItem.from_dict(
                        attachments_item_data
                    )
                )

                attachments.append(attachments_item)

        list_request_messages_response_200_data_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            author_role=author_role,
            message=message,
            created_at=created_at,
            livemode=livemode,
            attachments=attachments,
        )

        return list_request_messages_response_200_data_item
