from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.escalate_dispute_response_200_comments_item_author_role import (
    EscalateDisputeResponse200CommentsItemAuthorRole,
    check_escalate_dispute_response_200_comments_item_author_role,
)

T = TypeVar("T", bound="EscalateDisputeResponse200CommentsItem")


@_attrs_define
class EscalateDisputeResponse200CommentsItem:
    """
    Attributes:
        author_role (EscalateDisputeResponse200CommentsItemAuthorRole):
        message (str):
        created_at (datetime.datetime):
    """

    author_role: EscalateDisputeResponse200CommentsItemAuthorRole
    message: str
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        author_role: str = self.author_role

        message = self.message

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "author_role": author_role,
                "message": message,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        author_role = check_escalate_dispute_response_200_comments_item_author_role(
            d.pop("author_role")
        )

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        escalate_dispute_response_200_comments_item = cls(
            author_role=author_role,
            message=message,
            created_at=created_at,
        )

        return escalate_dispute_response_200_comments_item
