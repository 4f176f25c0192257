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

from ..models.get_provider_request_response_200_relation import (
    GetProviderRequestResponse200Relation,
    check_get_provider_request_response_200_relation,
)
from ..models.get_provider_request_response_200_status import (
    GetProviderRequestResponse200Status,
    check_get_provider_request_response_200_status,
)

if TYPE_CHECKING:
    from ..models.get_provider_request_response_200_customer import (
        GetProviderRequestResponse200Customer,
    )
    from ..models.get_provider_request_response_200_offer_type_0 import (
        GetProviderRequestResponse200OfferType0,
    )


T = TypeVar("T", bound="GetProviderRequestResponse200")


@_attrs_define
class GetProviderRequestResponse200:
    """
    Attributes:
        object_ (Literal['request']):
        id (str):
        status (GetProviderRequestResponse200Status):
        relation (GetProviderRequestResponse200Relation):
        message (str):
        category (None | str):
        subject (None | str):
        contact_permission (bool):
        customer (GetProviderRequestResponse200Customer):
        budget_min (float | None):
        budget_max (float | None):
        language (None | str):
        offer (GetProviderRequestResponse200OfferType0 | None): Extension: the request’s offer to this provider, when it
            had one. A `pending` offer waits for `POST /v1/provider/requests/{id}/offer/accept` (or `/decline`) before
            `respond_by`; after that it lapses and the request moves on to another provider.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    object_: Literal["request"]
    id: str
    status: GetProviderRequestResponse200Status
    relation: GetProviderRequestResponse200Relation
    message: str
    category: None | str
    subject: None | str
    contact_permission: bool
    customer: GetProviderRequestResponse200Customer
    budget_min: float | None
    budget_max: float | None
    language: None | str
    offer: GetProviderRequestResponse200OfferType0 | None
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.get_provider_request_response_200_offer_type_0 import (
            GetProviderRequestResponse200OfferType0,
        )

        object_ = self.object_

        id = self.id

        status: str = self.status

        relation: str = self.relation

        message = self.message

        category: None | str
        category = self.category

        subject: None | str
        subject = self.subject

        contact_permission = self.contact_permission

        customer = self.customer.to_dict()

        budget_min: float | None
        budget_min = self.budget_min

        budget_max: float | None
        budget_max = self.budget_max

        language: None | str
        language = self.language

        offer: dict[str, Any] | None
        if isinstance(self.offer, GetProviderRequestResponse200OfferType0):
            offer = self.offer.to_dict()
        else:
            offer = self.offer

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "status": status,
                "relation": relation,
                "message": message,
                "category": category,
                "subject": subject,
                "contact_permission": contact_permission,
                "customer": customer,
                "budget_min": budget_min,
                "budget_max": budget_max,
                "language": language,
                "offer": offer,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_provider_request_response_200_customer import (
            GetProviderRequestResponse200Customer,
        )
        from ..models.get_provider_request_response_200_offer_type_0 import (
            GetProviderRequestResponse200OfferType0,
        )

        d = dict(src_dict)
        object_ = cast(Literal["request"], d.pop("object"))
        if object_ != "request":
            raise ValueError(f"object must match const 'request', got '{object_}'")

        id = d.pop("id")

        status = check_get_provider_request_response_200_status(d.pop("status"))

        relation = check_get_provider_request_response_200_relation(d.pop("relation"))

        message = d.pop("message")

        def _parse_category(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        category = _parse_category(d.pop("category"))

        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("subject"))

        contact_permission = d.pop("contact_permission")

        customer = GetProviderRequestResponse200Customer.from_dict(d.pop("customer"))

        def _parse_budget_min(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        budget_min = _parse_budget_min(d.pop("budget_min"))

        def _parse_budget_max(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        budget_max = _parse_budget_max(d.pop("budget_max"))

        def _parse_language(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        language = _parse_language(d.pop("language"))

        def _parse_offer(
            data: object,
        ) -> GetProviderRequestResponse200OfferType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                offer_type_0 = GetProviderRequestResponse200OfferType0.from_dict(data)

                return offer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GetProviderRequestResponse200OfferType0 | None, data)

        offer = _parse_offer(d.pop("offer"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        get_provider_request_response_200 = cls(
            object_=object_,
            id=id,
            status=status,
            relation=relation,
            message=message,
            category=category,
            subject=subject,
            contact_permission=contact_permission,
            customer=customer,
            budget_min=budget_min,
            budget_max=budget_max,
            language=language,
            offer=offer,
            created_at=created_at,
            updated_at=updated_at,
        )

        return get_provider_request_response_200
