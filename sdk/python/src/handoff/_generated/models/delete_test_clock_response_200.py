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

T = TypeVar("T", bound="DeleteTestClockResponse200")


@_attrs_define
class DeleteTestClockResponse200:
    """
    Attributes:
        object_ (Literal['test_clock']):
        id (str):
        deleted (bool):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["test_clock"]
    id: str
    deleted: bool
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        deleted = self.deleted

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "deleted": deleted,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["test_clock"], d.pop("object"))
        if object_ != "test_clock":
            raise ValueError(f"object must match const 'test_clock', got '{object_}'")

        id = d.pop("id")

        deleted = d.pop("deleted")

        livemode = d.pop("livemode", UNSET)

        delete_test_clock_response_200 = cls(
            object_=object_,
            id=id,
            deleted=deleted,
            livemode=livemode,
        )

        return delete_test_clock_response_200
