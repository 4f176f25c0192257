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

from ..models.approve_milestone_response_200_approved_by_type_0 import (
    ApproveMilestoneResponse200ApprovedByType0,
    check_approve_milestone_response_200_approved_by_type_0,
)
from ..models.approve_milestone_response_200_status import (
    ApproveMilestoneResponse200Status,
    check_approve_milestone_response_200_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApproveMilestoneResponse200")


@_attrs_define
class ApproveMilestoneResponse200:
    """
    Attributes:
        object_ (Literal['milestone']):
        id (str):
        request_id (str):
        job_id (str):
        provider_id (str):
        title (str):
        description (None | str):
        amount (float | None):
        currency (None | str):
        status (ApproveMilestoneResponse200Status):
        progress (int):
        progress_note (None | str):
        revision (int):
        submission_note (None | str):
        change_request_reason (None | str):
        approved_by (ApproveMilestoneResponse200ApprovedByType0 | None):
        due_at (datetime.datetime | None):
        deadline_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        submitted_at (datetime.datetime | None):
        approved_at (datetime.datetime | None):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["milestone"]
    id: str
    request_id: str
    job_id: str
    provider_id: str
    title: str
    description: None | str
    amount: float | None
    currency: None | str
    status: ApproveMilestoneResponse200Status
    progress: int
    progress_note: None | str
    revision: int
    submission_note: None | str
    change_request_reason: None | str
    approved_by: ApproveMilestoneResponse200ApprovedByType0 | None
    due_at: datetime.datetime | None
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    submitted_at: datetime.datetime | None
    approved_at: datetime.datetime | None
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        job_id = self.job_id

        provider_id = self.provider_id

        title = self.title

        description: None | str
        description = self.description

        amount: float | None
        amount = self.amount

        currency: None | str
        currency = self.currency

        status: str = self.status

        progress = self.progress

        progress_note: None | str
        progress_note = self.progress_note

        revision = self.revision

        submission_note: None | str
        submission_note = self.submission_note

        change_request_reason: None | str
        change_request_reason = self.change_request_reason

        approved_by: None | str
        if isinstance(self.approved_by, str):
            approved_by = self.approved_by
        else:
            approved_by = self.approved_by

        due_at: None | str
        if isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        submitted_at: None | str
        if isinstance(self.submitted_at, datetime.datetime):
            submitted_at = self.submitted_at.isoformat()
        else:
            submitted_at = self.submitted_at

        approved_at: None | str
        if isinstance(self.approved_at, datetime.datetime):
            approved_at = self.approved_at.isoformat()
        else:
            approved_at = self.approved_at

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "request_id": request_id,
                "job_id": job_id,
                "provider_id": provider_id,
                "title": title,
                "description": description,
                "amount": amount,
                "currency": currency,
                "status": status,
                "progress": progress,
                "progress_note": progress_note,
                "revision": revision,
                "submission_note": submission_note,
                "change_request_reason": change_request_reason,
                "approved_by": approved_by,
                "due_at": due_at,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "submitted_at": submitted_at,
                "approved_at": approved_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["milestone"], d.pop("object"))
        if object_ != "milestone":
            raise ValueError(f"object must match const 'milestone', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        job_id = d.pop("job_id")

        provider_id = d.pop("provider_id")

        title = d.pop("title")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        currency = _parse_currency(d.pop("currency"))

        status = check_approve_milestone_response_200_status(d.pop("status"))

        progress = d.pop("progress")

        def _parse_progress_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        progress_note = _parse_progress_note(d.pop("progress_note"))

        revision = d.pop("revision")

        def _parse_submission_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        submission_note = _parse_submission_note(d.pop("submission_note"))

        def _parse_change_request_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        change_request_reason = _parse_change_request_reason(
            d.pop("change_request_reason")
        )

        def _parse_approved_by(
            data: object,
        ) -> ApproveMilestoneResponse200ApprovedByType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approved_by_type_0 = (
                    check_approve_milestone_response_200_approved_by_type_0(data)
                )

                return approved_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApproveMilestoneResponse200ApprovedByType0 | None, data)

        approved_by = _parse_approved_by(d.pop("approved_by"))

        def _parse_due_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)

                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        due_at = _parse_due_at(d.pop("due_at"))

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

        def _parse_submitted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                submitted_at_type_0 = datetime.datetime.fromisoformat(data)

                return submitted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        submitted_at = _parse_submitted_at(d.pop("submitted_at"))

        def _parse_approved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                approved_at_type_0 = datetime.datetime.fromisoformat(data)

                return approved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        approved_at = _parse_approved_at(d.pop("approved_at"))

        livemode = d.pop("livemode", UNSET)

        approve_milestone_response_200 = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            job_id=job_id,
            provider_id=provider_id,
            title=title,
            description=description,
            amount=amount,
            currency=currency,
            status=status,
            progress=progress,
            progress_note=progress_note,
            revision=revision,
            submission_note=submission_note,
            change_request_reason=change_request_reason,
            approved_by=approved_by,
            due_at=due_at,
            deadline_at=deadline_at,
            created_at=created_at,
            updated_at=updated_at,
            submitted_at=submitted_at,
            approved_at=approved_at,
            livemode=livemode,
        )

        return approve_milestone_response_200
