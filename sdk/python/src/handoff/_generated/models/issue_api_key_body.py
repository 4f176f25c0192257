from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="IssueApiKeyBody")


@_attrs_define
class IssueApiKeyBody:
    """
    Attributes:
        expires_in_days (int | Unset):
        livemode (bool | Unset): Extension: `false` issues a test key (`hk_test_…`) beside the live ones. It belongs to
            the integration’s test twin (made on the first test key), which owns all test data.
    """

    expires_in_days: int | Unset = UNSET
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expires_in_days = self.expires_in_days

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expires_in_days = d.pop("expires_in_days", UNSET)

        livemode = d.pop("livemode", UNSET)

        issue_api_key_body = cls(
            expires_in_days=expires_in_days,
            livemode=livemode,
        )

        return issue_api_key_body
