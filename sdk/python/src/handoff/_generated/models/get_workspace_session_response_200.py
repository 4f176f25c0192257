from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_workspace_session_response_200_provider import (
        GetWorkspaceSessionResponse200Provider,
    )


T = TypeVar("T", bound="GetWorkspaceSessionResponse200")


@_attrs_define
class GetWorkspaceSessionResponse200:
    """
    Attributes:
        object_ (Literal['workspace_session']):
        id (str):
        provider (GetWorkspaceSessionResponse200Provider):
        csrf_token (str):
        expires_at (datetime.datetime):
    """

    object_: Literal["workspace_session"]
    id: str
    provider: GetWorkspaceSessionResponse200Provider
    csrf_token: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        provider = self.provider.to_dict()

        csrf_token = self.csrf_token

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "provider": provider,
                "csrf_token": csrf_token,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_workspace_session_response_200_provider import (
            GetWorkspaceSessionResponse200Provider,
        )

        d = dict(src_dict)
        object_ = cast(Literal["workspace_session"], d.pop("object"))
        if object_ != "workspace_session":
            raise ValueError(
                f"object must match const 'workspace_session', got '{object_}'"
            )

        id = d.pop("id")

        provider = GetWorkspaceSessionResponse200Provider.from_dict(d.pop("provider"))

        csrf_token = d.pop("csrf_token")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        get_workspace_session_response_200 = cls(
            object_=object_,
            id=id,
            provider=provider,
            csrf_token=csrf_token,
            expires_at=expires_at,
        )

        return get_workspace_session_response_200
