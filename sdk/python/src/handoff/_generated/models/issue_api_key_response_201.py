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

from ..models.issue_api_key_response_201_scopes_item import (
    IssueApiKeyResponse201ScopesItem,
    check_issue_api_key_response_201_scopes_item,
)

T = TypeVar("T", bound="IssueApiKeyResponse201")


@_attrs_define
class IssueApiKeyResponse201:
    """
    Attributes:
        object_ (Literal['api_key']):
        api_key (str):
        key_id (str):
        integration_id (str):
        livemode (bool): Extension: false for a test key (`hk_test_…`), whose integration is the live one’s test twin.
        scopes (list[IssueApiKeyResponse201ScopesItem]):
        prefix (str):
        last4 (str):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
    """

    object_: Literal["api_key"]
    api_key: str
    key_id: str
    integration_id: str
    livemode: bool
    scopes: list[IssueApiKeyResponse201ScopesItem]
    prefix: str
    last4: str
    created_at: datetime.datetime
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        api_key = self.api_key

        key_id = self.key_id

        integration_id = self.integration_id

        livemode = self.livemode

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item: str = scopes_item_data
            scopes.append(scopes_item)

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
                "integration_id": integration_id,
                "livemode": livemode,
                "scopes": scopes,
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
        object_ = cast(Literal["api_key"], d.pop("object"))
        if object_ != "api_key":
            raise ValueError(f"object must match const 'api_key', got '{object_}'")

        api_key = d.pop("api_key")

        key_id = d.pop("key_id")

        integration_id = d.pop("integration_id")

        livemode = d.pop("livemode")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = check_issue_api_key_response_201_scopes_item(scopes_item_data)

            scopes.append(scopes_item)

        prefix = d.pop("prefix")

        last4 = d.pop("last4")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        issue_api_key_response_201 = cls(
            object_=object_,
            api_key=api_key,
            key_id=key_id,
            integration_id=integration_id,
            livemode=livemode,
            scopes=scopes,
            prefix=prefix,
            last4=last4,
            created_at=created_at,
            expires_at=expires_at,
        )

        return issue_api_key_response_201
