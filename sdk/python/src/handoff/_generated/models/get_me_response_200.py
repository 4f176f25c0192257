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

from ..models.get_me_response_200_scopes_item import (
    GetMeResponse200ScopesItem,
    check_get_me_response_200_scopes_item,
)

T = TypeVar("T", bound="GetMeResponse200")


@_attrs_define
class GetMeResponse200:
    """
    Attributes:
        object_ (Literal['agent_identity']):
        integration_id (str): For a test key, the integration’s test twin, which owns all its test data.
        livemode (bool): False for a test key (`hk_test_…`).
        key_id (str):
        scopes (list[GetMeResponse200ScopesItem]):
        key_expires_at (datetime.datetime):
    """

    object_: Literal["agent_identity"]
    integration_id: str
    livemode: bool
    key_id: str
    scopes: list[GetMeResponse200ScopesItem]
    key_expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        integration_id = self.integration_id

        livemode = self.livemode

        key_id = self.key_id

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item: str = scopes_item_data
            scopes.append(scopes_item)

        key_expires_at = self.key_expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "integration_id": integration_id,
                "livemode": livemode,
                "key_id": key_id,
                "scopes": scopes,
                "key_expires_at": key_expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["agent_identity"], d.pop("object"))
        if object_ != "agent_identity":
            raise ValueError(
                f"object must match const 'agent_identity', got '{object_}'"
            )

        integration_id = d.pop("integration_id")

        livemode = d.pop("livemode")

        key_id = d.pop("key_id")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = check_get_me_response_200_scopes_item(scopes_item_data)

            scopes.append(scopes_item)

        key_expires_at = datetime.datetime.fromisoformat(d.pop("key_expires_at"))

        get_me_response_200 = cls(
            object_=object_,
            integration_id=integration_id,
            livemode=livemode,
            key_id=key_id,
            scopes=scopes,
            key_expires_at=key_expires_at,
        )

        return get_me_response_200
