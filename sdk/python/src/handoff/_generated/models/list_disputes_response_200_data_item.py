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

from ..models.list_disputes_response_200_data_item_kind import (
    ListDisputesResponse200DataItemKind,
    check_list_disputes_response_200_data_item_kind,
)
from ..models.list_disputes_response_200_data_item_status import (
    ListDisputesResponse200DataItemStatus,
    check_list_disputes_response_200_data_item_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.list_disputes_response_200_data_item_comments_item import (
        ListDisputesResponse200DataItemCommentsItem,
    )
    from ..models.list_disputes_response_200_data_item_resolution_type_0 import (
        ListDisputesResponse200DataItemResolutionType0,
    )


T = TypeVar("T", bound="ListDisputesResponse200DataItem")


@_attrs_define
class ListDisputesResponse200DataItem:
    """
    Attributes:
        object_ (Literal['dispute']):
        id (str):
        request_id (str):
        job_id (None | str):
        milestone_id (None | str):
        provider_id (None | str):
        kind (ListDisputesResponse200DataItemKind):
        reason (str):
        amount (float | None):
        currency (None | str):
        status (ListDisputesResponse200DataItemStatus):
        comments (list[ListDisputesResponse200DataItemCommentsItem]):
        resolution (ListDisputesResponse200DataItemResolutionType0 | None):
        deadline_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["dispute"]
    id: str
    request_id: str
    job_id: None | str
    milestone_id: None | str
    provider_id: None | str
    kind: ListDisputesResponse200DataItemKind
    reason: str
    amount: float | None
    currency: None | str
    status: ListDisputesResponse200DataItemStatus
    comments: list[ListDisputesResponse200DataItemCommentsItem]
    resolution: ListDisputesResponse200DataItemResolutionType0 | None
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.list_disputes_response_200_data_item_resolution_type_0 import (
            ListDisputesResponse200DataItemResolutionType0,
        )

        object_ = self.object_

        id = self.id

        request_id = self.request_id

        job_id: None | str
        job_id = self.job_id

        milestone_id: None | str
        milestone_id = self.milestone_id

        provider_id: None | str
        provider_id = self.provider_id

        kind: str = self.kind

        reason = self.reason

        amount: float | None
        amount = self.amount

        currency: None | str
        currency = self.currency

        status: str = self.status

        comments = []
        for comments_item_data in self.comments:
            comments_item = comments_item_data.to_dict()
            comments.append(comments_item)

        resolution: dict[str, Any] | None
        if isinstance(self.resolution, ListDisputesResponse200DataItemResolutionType0):
            resolution = self.resolution.to_dict()
        else:
            resolution = self.resolution

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "request_id": request_id,
                "job_id": job_id,
                "milestone_id": milestone_id,
                "provider_id": provider_id,
                "kind": kind,
                "reason": reason,
                "amount": amount,
                "currency": currency,
                "status": status,
                "comments": comments,
                "resolution": resolution,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_disputes_response_200_data_item_comments_item import (
            ListDisputesResponse200DataItemCommentsItem,
        )
        from ..models.list_disputes_response_200_data_item_resolution_type_0 import (
            ListDisputesResponse200DataItemResolutionType0,
        )

        d = dict(src_dict)
        object_ = cast(Literal["dispute"], d.pop("object"))
        if object_ != "dispute":
            raise ValueError(f"object must match const 'dispute', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("job_id"))

        def _parse_milestone_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        milestone_id = _parse_milestone_id(d.pop("milestone_id"))

        def _parse_provider_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_id = _parse_provider_id(d.pop("provider_id"))

        kind = check_list_disputes_response_200_data_item_kind(d.pop("kind"))

        reason = d.pop("reason")

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

        status = check_list_disputes_response_200_data_item_status(d.pop("status"))

        comments = []
        _comments = d.pop("comments")
        for comments_item_data in _comments:
            comments_item = ListDisputesResponse200DataItemCommentsItem.from_dict(
                comments_item_data
            )

            comments.append(comments_item)

        def _parse_resolution(
            data: object,
        ) -> ListDisputesResponse200DataItemResolutionType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resolution_type_0 = (
                    ListDisputesResponse200DataItemResolutionType0.from_dict(data)
                )

                return resolution_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListDisputesResponse200DataItemResolutionType0 | None, data)

        resolution = _parse_resolution(d.pop("resolution"))

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

        livemode = d.pop("livemode", UNSET)

        list_disputes_response_200_data_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            job_id=job_id,
            milestone_id=milestone_id,
            provider_id=provider_id,
            kind=kind,
            reason=reason,
            amount=amount,
            currency=currency,
            status=status,
            comments=comments,
            resolution=resolution,
            deadline_at=deadline_at,
            created_at=created_at,
            updated_at=updated_at,
            livemode=livemode,
        )

        return list_disputes_response_200_data_item
