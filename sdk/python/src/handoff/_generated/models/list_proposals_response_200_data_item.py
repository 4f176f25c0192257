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

from ..models.list_proposals_response_200_data_item_status import (
    ListProposalsResponse200DataItemStatus,
    check_list_proposals_response_200_data_item_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.list_proposals_response_200_data_item_milestones_item import (
        ListProposalsResponse200DataItemMilestonesItem,
    )


T = TypeVar("T", bound="ListProposalsResponse200DataItem")


@_attrs_define
class ListProposalsResponse200DataItem:
    """
    Attributes:
        object_ (Literal['proposal']):
        id (str):
        request_id (str):
        provider_id (str):
        provider_name (str):
        message (str):
        amount (float):
        currency (str):
        estimated_days (int | None):
        milestones (list[ListProposalsResponse200DataItemMilestonesItem]):
        status (ListProposalsResponse200DataItemStatus):
        job_id (None | str):
        decline_reason (None | str):
        deadline_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        decided_at (datetime.datetime | None):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["proposal"]
    id: str
    request_id: str
    provider_id: str
    provider_name: str
    message: str
    amount: float
    currency: str
    estimated_days: int | None
    milestones: list[ListProposalsResponse200DataItemMilestonesItem]
    status: ListProposalsResponse200DataItemStatus
    job_id: None | str
    decline_reason: None | str
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    decided_at: datetime.datetime | None
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        provider_id = self.provider_id

        provider_name = self.provider_name

        message = self.message

        amount = self.amount

        currency = self.currency

        estimated_days: int | None
        estimated_days = self.estimated_days

        milestones = []
        for milestones_item_data in self.milestones:
            milestones_item = milestones_item_data.to_dict()
            milestones.append(milestones_item)

        status: str = self.status

        job_id: None | str
        job_id = self.job_id

        decline_reason: None | str
        decline_reason = self.decline_reason

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "request_id": request_id,
                "provider_id": provider_id,
                "provider_name": provider_name,
                "message": message,
                "amount": amount,
                "currency": currency,
                "estimated_days": estimated_days,
                "milestones": milestones,
                "status": status,
                "job_id": job_id,
                "decline_reason": decline_reason,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "decided_at": decided_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_proposals_response_200_data_item_milestones_item import (
            ListProposalsResponse200DataItemMilestonesItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["proposal"], d.pop("object"))
        if object_ != "proposal":
            raise ValueError(f"object must match const 'proposal', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        provider_id = d.pop("provider_id")

        provider_name = d.pop("provider_name")

        message = d.pop("message")

        amount = d.pop("amount")

        currency = d.pop("currency")

        def _parse_estimated_days(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        estimated_days = _parse_estimated_days(d.pop("estimated_days"))

        milestones = []
        _milestones = d.pop("milestones")
        for milestones_item_data in _milestones:
            milestones_item = ListProposalsResponse200DataItemMilestonesItem.from_dict(
                milestones_item_data
            )

            milestones.append(milestones_item)

        status = check_list_proposals_response_200_data_item_status(d.pop("status"))

        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("job_id"))

        def _parse_decline_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decline_reason = _parse_decline_reason(d.pop("decline_reason"))

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

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        livemode = d.pop("livemode", UNSET)

        list_proposals_response_200_data_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            provider_id=provider_id,
            provider_name=provider_name,
            message=message,
            amount=amount,
            currency=currency,
            estimated_days=estimated_days,
            milestones=milestones,
            status=status,
            job_id=job_id,
            decline_reason=decline_reason,
            deadline_at=deadline_at,
            created_at=created_at,
            updated_at=updated_at,
            decided_at=decided_at,
            livemode=livemode,
        )

        return list_proposals_response_200_data_item
