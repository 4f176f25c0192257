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

from ..models.list_jobs_response_200_data_item_status import (
    ListJobsResponse200DataItemStatus,
    check_list_jobs_response_200_data_item_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListJobsResponse200DataItem")


@_attrs_define
class ListJobsResponse200DataItem:
    """
    Attributes:
        object_ (Literal['job']):
        id (str):
        request_id (str):
        proposal_id (str):
        provider_id (str):
        amount (float):
        currency (str):
        status (ListJobsResponse200DataItemStatus):
        cancel_reason (None | str):
        deadline_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        completed_at (datetime.datetime | None):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["job"]
    id: str
    request_id: str
    proposal_id: str
    provider_id: str
    amount: float
    currency: str
    status: ListJobsResponse200DataItemStatus
    cancel_reason: None | str
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    completed_at: datetime.datetime | None
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        proposal_id = self.proposal_id

        provider_id = self.provider_id

        amount = self.amount

        currency = self.currency

        status: str = self.status

        cancel_reason: None | str
        cancel_reason = self.cancel_reason

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "request_id": request_id,
                "proposal_id": proposal_id,
                "provider_id": provider_id,
                "amount": amount,
                "currency": currency,
                "status": status,
                "cancel_reason": cancel_reason,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "completed_at": completed_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["job"], d.pop("object"))
        if object_ != "job":
            raise ValueError(f"object must match const 'job', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        proposal_id = d.pop("proposal_id")

        provider_id = d.pop("provider_id")

        amount = d.pop("amount")

        currency = d.pop("currency")

        status = check_list_jobs_response_200_data_item_status(d.pop("status"))

        def _parse_cancel_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cancel_reason = _parse_cancel_reason(d.pop("cancel_reason"))

        def _parse_deadline_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_at_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline_at = _parse_deadline_at(d.pop("deadline_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        livemode = d.pop("livemode", UNSET)

        list_jobs_response_200_data_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            proposal_id=proposal_id,
            provider_id=provider_id,
            amount=amount,
            currency=currency,
            status=status,
            cancel_reason=cancel_reason,
            deadline_at=deadline_at,
            created_at=created_at,
            updated_at=updated_at,
            completed_at=completed_at,
            livemode=livemode,
        )

        return list_jobs_response_200_data_item
