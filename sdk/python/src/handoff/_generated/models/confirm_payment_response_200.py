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

from ..models.confirm_payment_response_200_provider import (
    ConfirmPaymentResponse200Provider,
    check_confirm_payment_response_200_provider,
)
from ..models.confirm_payment_response_200_status import (
    ConfirmPaymentResponse200Status,
    check_confirm_payment_response_200_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ConfirmPaymentResponse200")


@_attrs_define
class ConfirmPaymentResponse200:
    """
    Attributes:
        object_ (Literal['payment']):
        id (str):
        payment_request_id (str):
        request_id (str):
        amount (float):
        currency (str):
        provider (ConfirmPaymentResponse200Provider):
        provider_reference (None | str):
        status (ConfirmPaymentResponse200Status):
        failure_reason (None | str):
        deadline_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        completed_at (datetime.datetime | None):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["payment"]
    id: str
    payment_request_id: str
    request_id: str
    amount: float
    currency: str
    provider: ConfirmPaymentResponse200Provider
    provider_reference: None | str
    status: ConfirmPaymentResponse200Status
    failure_reason: None | str
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    completed_at: datetime.datetime | None
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        payment_request_id = self.payment_request_id

        request_id = self.request_id

        amount = self.amount

        currency = self.currency

        provider: str = self.provider

        provider_reference: None | str
        provider_reference = self.provider_reference

        status: str = self.status

        failure_reason: None | str
        failure_reason = self.failure_reason

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
                "payment_request_id": payment_request_id,
                "request_id": request_id,
                "amount": amount,
                "currency": currency,
                "provider": provider,
                "provider_reference": provider_reference,
                "status": status,
                "failure_reason": failure_reason,
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
        object_ = cast(Literal["payment"], d.pop("object"))
        if object_ != "payment":
            raise ValueError(f"object must match const 'payment', got '{object_}'")

        id = d.pop("id")

        payment_request_id = d.pop("payment_request_id")

        request_id = d.pop("request_id")

        amount = d.pop("amount")

        currency = d.pop("currency")

        provider = check_confirm_payment_response_200_provider(d.pop("provider"))

        def _parse_provider_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_reference = _parse_provider_reference(d.pop("provider_reference"))

        status = check_confirm_payment_response_200_status(d.pop("status"))

        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason"))

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

        confirm_payment_response_200 = cls(
            object_=object_,
            id=id,
            payment_request_id=payment_request_id,
            request_id=request_id,
            amount=amount,
            currency=currency,
            provider=provider,
            provider_reference=provider_reference,
            status=status,
            failure_reason=failure_reason,
            deadline_at=deadline_at,
            created_at=created_at,
            updated_at=updated_at,
            completed_at=completed_at,
            livemode=livemode,
        )

        return confirm_payment_response_200
