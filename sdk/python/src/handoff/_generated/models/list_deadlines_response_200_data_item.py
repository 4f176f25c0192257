from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.list_deadlines_response_200_data_item_resource import (
    ListDeadlinesResponse200DataItemResource,
    check_list_deadlines_response_200_data_item_resource,
)

T = TypeVar("T", bound="ListDeadlinesResponse200DataItem")


@_attrs_define
class ListDeadlinesResponse200DataItem:
    """
    Attributes:
        object_ (Literal['deadline']):
        resource (ListDeadlinesResponse200DataItemResource):
        id (str):
        request_id (str):
        state (str):
        waiting_on (str):
        deadline_at (datetime.datetime):
        overdue (bool):
        consequence (str):
    """

    object_: Literal["deadline"]
    resource: ListDeadlinesResponse200DataItemResource
    id: str
    request_id: str
    state: str
    waiting_on: str
    deadline_at: datetime.datetime
    overdue: bool
    consequence: str

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        resource: str = self.resource

        id = self.id

        request_id = self.request_id

        state = self.state

        waiting_on = self.waiting_on

        deadline_at = self.deadline_at.isoformat()

        overdue = self.overdue

        consequence = self.consequence

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "resource": resource,
                "id": id,
                "request_id": request_id,
                "state": state,
                "waiting_on": waiting_on,
                "deadline_at": deadline_at,
                "overdue": overdue,
                "consequence": consequence,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["deadline"], d.pop("object"))
        if object_ != "deadline":
            raise ValueError(f"object must match const 'deadline', got '{object_}'")

        resource = check_list_deadlines_response_200_data_item_resource(
            d.pop("resource")
        )

        id = d.pop("id")

        request_id = d.pop("request_id")

        state = d.pop("state")

        waiting_on = d.pop("waiting_on")

        deadline_at = datetime.datetime.fromisoformat(d.pop("deadline_at"))

        overdue = d.pop("overdue")

        consequence = d.pop("consequence")

        list_deadlines_response_200_data_item = cls(
            object_=object_,
            resource=resource,
            id=id,
            request_id=request_id,
            state=state,
            waiting_on=waiting_on,
            deadline_at=deadline_at,
            overdue=overdue,
            consequence=consequence,
        )

        return list_deadlines_response_200_data_item
