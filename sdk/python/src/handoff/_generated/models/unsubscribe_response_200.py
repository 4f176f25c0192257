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

from ..models.unsubscribe_response_200_kind import (
    UnsubscribeResponse200Kind,
    check_unsubscribe_response_200_kind,
)

T = TypeVar("T", bound="UnsubscribeResponse200")


@_attrs_define
class UnsubscribeResponse200:
    """
    Attributes:
        object_ (Literal['unsubscribe']):
        kind (UnsubscribeResponse200Kind):
        description (str):
        subscribed (bool):
    """

    object_: Literal["unsubscribe"]
    kind: UnsubscribeResponse200Kind
    description: str
    subscribed: bool

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        kind: str = self.kind

        description = self.description

        subscribed = self.subscribed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "kind": kind,
                "description": description,
                "subscribed": subscribed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["unsubscribe"], d.pop("object"))
        if object_ != "unsubscribe":
            raise ValueError(f"object must match const 'unsubscribe', got '{object_}'")

        kind = check_unsubscribe_response_200_kind(d.pop("kind"))

        description = d.pop("description")

        subscribed = d.pop("subscribed")

        unsubscribe_response_200 = cls(
            object_=object_,
            kind=kind,
            description=description,
            subscribed=subscribed,
        )

        return unsubscribe_response_200
