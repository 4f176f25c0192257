from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.propose_payment_request_body_currency import (
    ProposePaymentRequestBodyCurrency,
    check_propose_payment_request_body_currency,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProposePaymentRequestBody")


@_attrs_define
class ProposePaymentRequestBody:
    """
    Attributes:
        amount (float):
        description (str):
        currency (ProposePaymentRequestBodyCurrency | Unset): ISO 4217 currency code; letters in any case are accepted
            (`eur` is `EUR`) and the code is stored and returned upper case.
        reference (str | Unset):
    """

    amount: float
    description: str
    currency: ProposePaymentRequestBodyCurrency | Unset = UNSET
    reference: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        description = self.description

        currency: str | Unset = UNSET
        if not isinstance(self.currency, Unset):
            currency = self.currency

        reference = self.reference

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "description": description,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency
        if reference is not UNSET:
            field_dict["reference"] = reference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        description = d.pop("description")

        _currency = d.pop("currency", UNSET)
        currency: ProposePaymentRequestBodyCurrency | Unset
        if isinstance(_currency, Unset):
            currency = UNSET
        else:
            currency = check_propose_payment_request_body_currency(_currency)

        reference = d.pop("reference", UNSET)

        propose_payment_request_body = cls(
            amount=amount,
            description=description,
            currency=currency,
            reference=reference,
        )

        return propose_payment_request_body
