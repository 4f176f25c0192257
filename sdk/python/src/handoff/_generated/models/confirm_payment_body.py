from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ConfirmPaymentBody")


@_attrs_define
class ConfirmPaymentBody:
    """
    Attributes:
        reference (str | Unset):
    """

    reference: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reference = d.pop("reference", UNSET)

        confirm_payment_body = cls(
            reference=reference,
        )

        return confirm_payment_body
