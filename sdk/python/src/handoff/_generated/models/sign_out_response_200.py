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

from ..models.sign_out_response_200_ended_by_type_0 import (
    SignOutResponse200EndedByType0,
    check_sign_out_response_200_ended_by_type_0,
)
from ..models.sign_out_response_200_status import (
    SignOutResponse200Status,
    check_sign_out_response_200_status,
)

T = TypeVar("T", bound="SignOutResponse200")


@_attrs_define
class SignOutResponse200:
    """
    Attributes:
        object_ (Literal['provider_session']):
        id (str):
        provider_id (str):
        status (SignOutResponse200Status):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        ended_at (datetime.datetime | None):
        ended_by (None | SignOutResponse200EndedByType0):
        user_agent (None | str):
    """

    object_: Literal["provider_session"]
    id: str
    provider_id: str
    status: SignOutResponse200Status
    created_at: datetime.datetime
    expires_at: datetime.datetime
    ended_at: datetime.datetime | None
    ended_by: None | SignOutResponse200EndedByType0
    user_agent: None | str

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        provider_id = self.provider_id

        status: str = self.status

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        ended_at: None | str
        if isinstance(self.ended_at, datetime.datetime):
            ended_at = self.ended_at.isoformat()
        else:
            ended_at = self.ended_at

        ended_by: None | str
        if isinstance(self.ended_by, str):
            ended_by = self.ended_by
        else:
            ended_by = self.ended_by

        user_agent: None | str
        user_agent = self.user_agent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "provider_id": provider_id,
                "status": status,
                "created_at": created_at,
                "expires_at": expires_at,
                "ended_at": ended_at,
                "ended_by": ended_by,
                "user_agent": user_agent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["provider_session"], d.pop("object"))
        if object_ != "provider_session":
            raise ValueError(
                f"object must match const 'provider_session', got '{object_}'"
            )

        id = d.pop("id")

        provider_id = d.pop("provider_id")

        status = check_sign_out_response_200_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_ended_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ended_at_type_0 = datetime.datetime.fromisoformat(data)

                return ended_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        def _parse_ended_by(data: object) -> None | SignOutResponse200EndedByType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ended_by_type_0 = check_sign_out_response_200_ended_by_type_0(data)

                return ended_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SignOutResponse200EndedByType0, data)

        ended_by = _parse_ended_by(d.pop("ended_by"))

        def _parse_user_agent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_agent = _parse_user_agent(d.pop("user_agent"))

        sign_out_response_200 = cls(
            object_=object_,
            id=id,
            provider_id=provider_id,
            status=status,
            created_at=created_at,
            expires_at=expires_at,
            ended_at=ended_at,
            ended_by=ended_by,
            user_agent=user_agent,
        )

        return sign_out_response_200
