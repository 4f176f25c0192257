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

from ..types import UNSET, Unset

T = TypeVar("T", bound="RedeliverEventResponse202")


@_attrs_define
class RedeliverEventResponse202:
    """
    Attributes:
        object_ (Literal['redelivery']):
        event_id (str):
        endpoints (int):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["redelivery"]
    event_id: str
    endpoints: int
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        event_id = self.event_id

        endpoints = self.endpoints

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "event_id": event_id,
                "endpoints": endpoints,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["redelivery"], d.pop("object"))
        if object_ != "redelivery":
            raise ValueError(f"object must match const 'redelivery', got '{object_}'")

        event_id = d.pop("event_id")

        endpoints = d.pop("endpoints")

        livemode = d.pop("livemode", UNSET)

        redeliver_event_response_202 = cls(
            object_=object_,
            event_id=event_id,
            endpoints=endpoints,
            livemode=livemode,
        )

        return redeliver_event_response_202
