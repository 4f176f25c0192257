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

from ..models.get_test_clock_response_200_status import (
    GetTestClockResponse200Status,
    check_get_test_clock_response_200_status,
)

T = TypeVar("T", bound="GetTestClockResponse200")


@_attrs_define
class GetTestClockResponse200:
    """
    Attributes:
        object_ (Literal['test_clock']):
        id (str):
        name (None | str):
        frozen_time (datetime.datetime): The clock's time. The deadlines of its requests fall relative to it: one that
            is `n` days away falls at `frozen_time` + `n` days, and fires when an advance passes it.
        status (GetTestClockResponse200Status): `advancing` while an advance runs (one that took longer than its answer
            could wait goes on in the background); `ready` otherwise.
        requests (int): How many requests were made on the clock.
        created_at (datetime.datetime):
        livemode (bool):
    """

    object_: Literal["test_clock"]
    id: str
    name: None | str
    frozen_time: datetime.datetime
    status: GetTestClockResponse200Status
    requests: int
    created_at: datetime.datetime
    livemode: bool

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        name: None | str
        name = self.name

        frozen_time = self.frozen_time.isoformat()

        status: str = self.status

        requests = self.requests

        created_at = self.created_at.isoformat()

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "name": name,
                "frozen_time": frozen_time,
                "status": status,
                "requests": requests,
                "created_at": created_at,
                "livemode": livemode,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["test_clock"], d.pop("object"))
        if object_ != "test_clock":
            raise ValueError(f"object must match const 'test_clock', got '{object_}'")

        id = d.pop("id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        frozen_time = datetime.datetime.fromisoformat(d.pop("frozen_time"))

        status = check_get_test_clock_response_200_status(d.pop("status"))

        requests = d.pop("requests")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        livemode = d.pop("livemode")

        get_test_clock_response_200 = cls(
            object_=object_,
            id=id,
            name=name,
            frozen_time=frozen_time,
            status=status,
            requests=requests,
            created_at=created_at,
            livemode=livemode,
        )

        return get_test_clock_response_200
