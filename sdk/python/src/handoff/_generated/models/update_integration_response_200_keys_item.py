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

from ..models.update_integration_response_200_keys_item_status import (
    UpdateIntegrationResponse200KeysItemStatus,
    check_update_integration_response_200_keys_item_status,
)

T = TypeVar("T", bound="UpdateIntegrationResponse200KeysItem")


@_attrs_define
class UpdateIntegrationResponse200KeysItem:
    """
    Attributes:
        object_ (Literal['api_key']):
        id (str):
        integration_id (str):
        prefix (str):
        last4 (str):
        status (UpdateIntegrationResponse200KeysItemStatus):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        revoked_at (datetime.datetime | None):
    """

    object_: Literal["api_key"]
    id: str
    integration_id: str
    prefix: str
    last4: str
    status: UpdateIntegrationResponse200KeysItemStatus
    created_at: datetime.datetime
    expires_at: datetime.datetime
    revoked_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        integration_id = self.integration_id

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
                "integration_id": integration_id,
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
        object_ = cast(Literal["api_key"], d.pop("object"))
        if object_ != "api_key":
            raise ValueError(f"object must match const 'api_key', got '{object_}'")

        id = d.pop("id")

        integration_id = d.pop("integration_id")

        prefix = d.pop("prefix")

        last4 = d.pop("last4")

        status = check_update_integration_response_200_keys_item_status(d.pop("status"))

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

        update_integration_response_200_keys_item = cls(
            object_=object_,
            id=id,
            integration_id=integration_id,
            prefix=prefix,
            last4=last4,
            status=status,
            created_at=created_at,
            expires_at=expires_at,
            revoked_at=revoked_at,
        )

        return update_integration_response_200_keys_item
