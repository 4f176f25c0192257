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

T = TypeVar("T", bound="IssueProviderKeyResponse201")


@_attrs_define
class IssueProviderKeyResponse201:
    """
    Attributes:
        object_ (Literal['provider_key']):
        api_key (str):
        key_id (str):
        provider_id (str):
        prefix (str):
        last4 (str):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
    """

    object_: Literal["provider_key"]
    api_key: str
    key_id: str
    provider_id: str
    prefix: str
    last4: str
    created_at: datetime.datetime
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        api_key = self.api_key

        key_id = self.key_id

        provider_id = self.provider_id

        prefix = self.prefix

        last4 = self.last4

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "api_key": api_key,
                "key_id": key_id,
                "provider_id": provider_id,
                "prefix": prefix,
                "last4": last4,
                "created_at": created_at,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["provider_key"], d.pop("object"))
        if object_ != "provider_key":
            raise ValueError(f"object must match const 'provider_key', got '{object_}'")

        api_key = d.pop("api_key")

        key_id = d.pop("key_id")

        provider_id = d.pop("provider_id")

        prefix = d.pop("prefix")

        last4 = d.pop("last4")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        issue_provider_key_response_201 = cls(
            object_=object_,
            api_key=api_key,
            key_id=key_id,
            provider_id=provider_id,
            prefix=prefix,
            last4=last4,
            created_at=created_at,
            expires_at=expires_at,
        )

        return issue_provider_key_response_201
