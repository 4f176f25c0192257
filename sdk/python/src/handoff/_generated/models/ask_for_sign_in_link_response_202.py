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

T = TypeVar("T", bound="AskForSignInLinkResponse202")


@_attrs_define
class AskForSignInLinkResponse202:
    """
    Attributes:
        object_ (Literal['sign_in']):
        status (Literal['accepted']):
        detail (str):
    """

    object_: Literal["sign_in"]
    status: Literal["accepted"]
    detail: str

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        status = self.status

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "status": status,
                "detail": detail,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["sign_in"], d.pop("object"))
        if object_ != "sign_in":
            raise ValueError(f"object must match const 'sign_in', got '{object_}'")

        status = cast(Literal["accepted"], d.pop("status"))
        if status != "accepted":
            raise ValueError(f"status must match const 'accepted', got '{status}'")

        detail = d.pop("detail")

        ask_for_sign_in_link_response_202 = cls(
            object_=object_,
            status=status,
            detail=detail,
        )

        return ask_for_sign_in_link_response_202
