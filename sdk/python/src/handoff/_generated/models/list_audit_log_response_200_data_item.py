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

if TYPE_CHECKING:
    from ..models.list_audit_log_response_200_data_item_after_type_0 import (
        ListAuditLogResponse200DataItemAfterType0,
    )
    from ..models.list_audit_log_response_200_data_item_before_type_0 import (
        ListAuditLogResponse200DataItemBeforeType0,
    )


T = TypeVar("T", bound="ListAuditLogResponse200DataItem")


@_attrs_define
class ListAuditLogResponse200DataItem:
    """
    Attributes:
        object_ (Literal['audit_entry']):
        id (str):
        actor (str):
        action (str):
        target_type (str):
        target_id (str):
        at (datetime.datetime):
        call_id (None | str): The `Request-Id` of the staff call that made this entry; null for an action no call made.
        before (ListAuditLogResponse200DataItemBeforeType0 | None):
        after (ListAuditLogResponse200DataItemAfterType0 | None):
    """

    object_: Literal["audit_entry"]
    id: str
    actor: str
    action: str
    target_type: str
    target_id: str
    at: datetime.datetime
    call_id: None | str
    before: ListAuditLogResponse200DataItemBeforeType0 | None
    after: ListAuditLogResponse200DataItemAfterType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.list_audit_log_response_200_data_item_after_type_0 import (
            ListAuditLogResponse200DataItemAfterType0,
        )
        from ..models.list_audit_log_response_200_data_item_before_type_0 import (
            ListAuditLogResponse200DataItemBeforeType0,
        )

        object_ = self.object_

        id = self.id

        actor = self.actor

        action = self.action

        target_type = self.target_type

        target_id = self.target_id

        at = self.at.isoformat()

        call_id: None | str
        call_id = self.call_id

        before: dict[str, Any] | None
        if isinstance(self.before, ListAuditLogResponse200DataItemBeforeType0):
            before = self.before.to_dict()
        else:
            before = self.before

        after: dict[str, Any] | None
        if isinstance(self.after, ListAuditLogResponse200DataItemAfterType0):
            after = self.after.to_dict()
        else:
            after = self.after

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "actor": actor,
                "action": action,
                "target_type": target_type,
                "target_id": target_id,
                "at": at,
                "call_id": call_id,
                "before": before,
                "after": after,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_audit_log_response_200_data_item_after_type_0 import (
            ListAuditLogResponse200DataItemAfterType0,
        )
        from ..models.list_audit_log_response_200_data_item_before_type_0 import (
            ListAuditLogResponse200DataItemBeforeType0,
        )

        d = dict(src_dict)
        object_ = cast(Literal["audit_entry"], d.pop("object"))
        if object_ != "audit_entry":
            raise ValueError(f"object must match const 'audit_entry', got '{object_}'")

        id = d.pop("id")

        actor = d.pop("actor")

        action = d.pop("action")

        target_type = d.pop("target_type")

        target_id = d.pop("target_id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        def _parse_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        call_id = _parse_call_id(d.pop("call_id"))

        def _parse_before(
            data: object,
        ) -> ListAuditLogResponse200DataItemBeforeType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                before_type_0 = ListAuditLogResponse200DataItemBeforeType0.from_dict(
                    data
                )

                return before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListAuditLogResponse200DataItemBeforeType0 | None, data)

        before = _parse_before(d.pop("before"))

        def _parse_after(
            data: object,
        ) -> ListAuditLogResponse200DataItemAfterType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                after_type_0 = ListAuditLogResponse200DataItemAfterType0.from_dict(data)

                return after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListAuditLogResponse200DataItemAfterType0 | None, data)

        after = _parse_after(d.pop("after"))

        list_audit_log_response_200_data_item = cls(
            object_=object_,
            id=id,
            actor=actor,
            action=action,
            target_type=target_type,
            target_id=target_id,
            at=at,
            call_id=call_id,
            before=before,
            after=after,
        )

        return list_audit_log_response_200_data_item
