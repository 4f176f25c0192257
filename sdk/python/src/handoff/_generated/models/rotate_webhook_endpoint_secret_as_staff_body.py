from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateWebhookEndpointSecretAsStaffBody")


@_attrs_define
class RotateWebhookEndpointSecretAsStaffBody:
    """
    Attributes:
        grace_period_seconds (int | Unset):
    """

    grace_period_seconds: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        grace_period_seconds = self.grace_period_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if grace_period_seconds is not UNSET:
            field_dict["grace_period_seconds"] = grace_period_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        grace_period_seconds = d.pop("grace_period_seconds", UNSET)

        rotate_webhook_endpoint_secret_as_staff_body = cls(
            grace_period_seconds=grace_period_seconds,
        )

        return rotate_webhook_endpoint_secret_as_staff_body
