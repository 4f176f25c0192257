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

from ..models.get_request_timeline_response_200_data_item_kind import (
    GetRequestTimelineResponse200DataItemKind,
    check_get_request_timeline_response_200_data_item_kind,
)

T = TypeVar("T", bound="GetRequestTimelineResponse200DataItem")


@_attrs_define
class GetRequestTimelineResponse200DataItem:
    """
    Attributes:
        object_ (Literal['timeline_item']):
        kind (GetRequestTimelineResponse200DataItemKind):
        id (str):
        at (datetime.datetime):
        sequence (int | None):
        status (None | str):
        summary (str):
    """

    object_: Literal["timeline_item"]
    kind: GetRequestTimelineResponse200DataItemKind
    id: str
    at: datetime.datetime
    sequence: int | None
    status: None | str
    summary: str

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        kind: str = self.kind

        id = self.id

        at = self.at.isoformat()

        sequence: int | None
        sequence = self.sequence

        status: None | str
        status = self.status

        summary = self.summary

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "kind": kind,
                "id": id,
                "at": at,
                "sequence": sequence,
                "status": status,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["timeline_item"], d.pop("object"))
        if object_ != "timeline_item":
            raise ValueError(
                f"object must match const 'timeline_item', got '{object_}'"
            )

        kind = check_get_request_timeline_response_200_data_item_kind(d.pop("kind"))

        id = d.pop("id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        def _parse_sequence(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        sequence = _parse_sequence(d.pop("sequence"))

        def _parse_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status = _parse_status(d.pop("status"))

        summary = d.pop("summary")

        get_request_timeline_response_200_data_item = cls(
            object_=object_,
            kind=kind,
            id=id,
            at=at,
            sequence=sequence,
            status=status,
            summary=summary,
        )

        return get_request_timeline_response_200_data_item
