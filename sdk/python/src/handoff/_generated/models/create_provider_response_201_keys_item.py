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

from ..models.create_provider_response_201_keys_item_status import (
    CreateProviderResponse201KeysItemStatus,
    check_create_provider_response_201_keys_item_status,
)

T = TypeVar("T", bound="CreateProviderResponse201KeysItem")


@_attrs_define
class CreateProviderResponse201KeysItem:
    """
    Attributes:
        object_ (Literal['provider_key']):
        id (str):
        provider_id (str):
        prefix (str):
        last4 (str):
        status (CreateProviderResponse201KeysItemStatus):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        revoked_at (datetime.datetime | None):
    """

    object_: Literal["provider_key"]
    id: str
    provider_id: str
    prefix: str
    last4: str
    status: CreateProviderResponse201KeysItemStatus
    created_at: datetime.datetime
    expires_at: datetime.datetime
    revoked_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        provider_id = self.provider_id

        prefix = self.prefix

        last4 = self.last4

        status: str = self.status

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "provider_id": provider_id,
                "prefix": prefix,
                "last4": last4,
                "status": status,
                "created_at": created_at,
                "expires_at": expires_at,
                "revoked_at": revoked_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["provider_key"], d.pop("object"))
        if object_ != "provider_key":
            raise ValueError(f"object must match const 'provider_key', got '{object_}'")

        id = d.pop("id")

        provider_id = d.pop("provider_id")

        prefix = d.pop("prefix")

        last4 = d.pop("last4")

        status = check_create_provider_response_201_keys_item_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        create_provider_response_201_keys_item = cls(
            object_=object_,
            id=id,
            provider_id=provider_id,
            prefix=prefix,
            last4=last4,
            status=status,
            created_at=created_at,
            expires_at=expires_at,
            revoked_at=revoked_at,
        )

        return create_provider_response_201_keys_item
