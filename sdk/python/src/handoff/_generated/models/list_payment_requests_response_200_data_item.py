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

from ..models.list_payment_requests_response_200_data_item_status import (
    ListPaymentRequestsResponse200DataItemStatus,
    check_list_payment_requests_response_200_data_item_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListPaymentRequestsResponse200DataItem")


@_attrs_define
class ListPaymentRequestsResponse200DataItem:
    """
    Attributes:
        object_ (Literal['payment_request']):
        id (str):
        request_id (str):
        amount (float):
        currency (str):
        description (str):
        reference (None | str):
        status (ListPaymentRequestsResponse200DataItemStatus):
        rejection_reason (None | str):
        created_at (datetime.datetime):
        decided_at (datetime.datetime | None):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["payment_request"]
    id: str
    request_id: str
    amount: float
    currency: str
    description: str
    reference: None | str
    status: ListPaymentRequestsResponse200DataItemStatus
    rejection_reason: None | str
    created_at: datetime.datetime
    decided_at: datetime.datetime | None
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        amount = self.amount

        currency = self.currency

        description = self.description

        reference: None | str
        reference = self.reference

        status: str = self.status

        rejection_reason: None | str
        rejection_reason = self.rejection_reason

        created_at = self.created_at.isoformat()

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
                "amount": amount,
                "currency": currency,
                "description": description,
                "reference": reference,
                "status": status,
                "rejection_reason": rejection_reason,
                "created_at": created_at,
                "decided_at": decided_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["payment_request"], d.pop("object"))
        if object_ != "payment_request":
            raise ValueError(
                f"object must match const 'payment_request', got '{object_}'"
            )

        id = d.pop("id")

        request_id = d.pop("request_id")

        amount = d.pop("amount")

        currency = d.pop("currency")

        description = d.pop("description")

        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))

        status = check_list_payment_requests_response_200_data_item_status(
            d.pop("status")
        )

        def _parse_rejection_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rejection_reason = _parse_rejection_reason(d.pop("rejection_reason"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

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

        list_payment_requests_response_200_data_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            amount=amount,
            currency=currency,
            description=description,
            reference=reference,
            status=status,
            rejection_reason=rejection_reason,
            created_at=created_at,
            decided_at=decided_at,
            livemode=livemode,
        )

        return list_payment_requests_response_200_data_item
