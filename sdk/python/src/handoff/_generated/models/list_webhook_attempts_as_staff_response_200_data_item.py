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

from ..models.list_webhook_attempts_as_staff_response_200_data_item_event_type import (
    ListWebhookAttemptsAsStaffResponse200DataItemEventType,
    check_list_webhook_attempts_as_staff_response_200_data_item_event_type,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListWebhookAttemptsAsStaffResponse200DataItem")


@_attrs_define
class ListWebhookAttemptsAsStaffResponse200DataItem:
    """
    Attributes:
        object_ (Literal['webhook_attempt']):
        id (str):
        endpoint_id (str):
        event_id (str):
        event_type (ListWebhookAttemptsAsStaffResponse200DataItemEventType):
        attempt (int):
        attempted_at (datetime.datetime):
        status_code (int | None):
        duration_ms (float):
        error (None | str):
        response_body (None | str):
        next_attempt_at (datetime.datetime | None):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["webhook_attempt"]
    id: str
    endpoint_id: str
    event_id: str
    event_type: ListWebhookAttemptsAsStaffResponse200DataItemEventType
    attempt: int
    attempted_at: datetime.datetime
    status_code: int | None
    duration_ms: float
    error: None | str
    response_body: None | str
    next_attempt_at: datetime.datetime | None
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type: str = self.event_type

        attempt = self.attempt

        attempted_at = self.attempted_at.isoformat()

        status_code: int | None
        status_code = self.status_code

        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        response_body: None | str
        response_body = self.response_body

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "endpoint_id": endpoint_id,
                "event_id": event_id,
                "event_type": event_type,
                "attempt": attempt,
                "attempted_at": attempted_at,
                "status_code": status_code,
                "duration_ms": duration_ms,
                "error": error,
                "response_body": response_body,
                "next_attempt_at": next_attempt_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["webhook_attempt"], d.pop("object"))
        if object_ != "webhook_attempt":
            raise ValueError(
                f"object must match const 'webhook_attempt', got '{object_}'"
            )

        id = d.pop("id")

        endpoint_id = d.pop("endpoint_id")

        event_id = d.pop("event_id")

        event_type = (
            check_list_webhook_attempts_as_staff_response_200_data_item_event_type(
                d.pop("event_type")
            )
        )

        attempt = d.pop("attempt")

        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        duration_ms = d.pop("duration_ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        livemode = d.pop("livemode", UNSET)

        list_webhook_attempts_as_staff_response_200_data_item = cls(
            object_=object_,
            id=id,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            attempt=attempt,
            attempted_at=attempted_at,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            response_body=response_body,
            next_attempt_at=next_attempt_at,
            livemode=livemode,
        )

        return list_webhook_attempts_as_staff_response_200_data_item
