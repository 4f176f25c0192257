from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ProblemErrorsItem")


@_attrs_define
class ProblemErrorsItem:
    """
    Attributes:
        pointer (str):
        code (str):
        detail (str):
    """

    pointer: str
    code: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        pointer = self.pointer

        code = self.code

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pointer": pointer,
                "code": code,
                "detail": detail,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pointer = d.pop("pointer")

        code = d.pop("code")

        detail = d.pop("detail")

        problem_errors_item = cls(
            pointer=pointer,
            code=code,
            detail=detail,
        )

        return problem_errors_item
