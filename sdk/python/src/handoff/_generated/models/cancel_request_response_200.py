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

from ..models.cancel_request_response_200_status import (
    CancelRequestResponse200Status,
    check_cancel_request_response_200_status,
)
from ..models.cancel_request_response_200_test_scenario_type_0 import (
    CancelRequestResponse200TestScenarioType0,
    check_cancel_request_response_200_test_scenario_type_0,
)

if TYPE_CHECKING:
    from ..models.cancel_request_response_200_conversation_item import (
        CancelRequestResponse200ConversationItem,
    )
    from ..models.cancel_request_response_200_customer import (
        CancelRequestResponse200Customer,
    )
    from ..models.cancel_request_response_200_marketplace import (
        CancelRequestResponse200Marketplace,
    )
    from ..models.cancel_request_response_200_payments_item import (
        CancelRequestResponse200PaymentsItem,
    )
    from ..models.cancel_request_response_200_routing import (
        CancelRequestResponse200Routing,
    )


T = TypeVar("T", bound="CancelRequestResponse200")


@_attrs_define
class CancelRequestResponse200:
    """
    Attributes:
        object_ (Literal['request']):
        id (str):
        status (CancelRequestResponse200Status):
        routing (CancelRequestResponse200Routing):
        message (str):
        category (None | str):
        subject (None | str):
        customer (CancelRequestResponse200Customer):
        contact_permission (bool):
        marketplace (CancelRequestResponse200Marketplace):
        budget_min (float | None):
        budget_max (float | None):
        language (None | str): Extension (not in spec 1.0.2): the customer’s language, when given.
        engaged_provider_id (None | str): Extension (not in spec 1.0.2): the provider whose proposal the customer
            accepted, or null while no provider is engaged.
        livemode (bool): Extension: false for a request made with a test key (`hk_test_…`), which only the simulated
            provider answers.
        test_scenario (CancelRequestResponse200TestScenarioType0 | None): Extension: the scenario a test request runs;
            null on a live request.
        test_clock (None | str): Extension: the test clock the request runs on, if any; null on a live request.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        conversation (list[CancelRequestResponse200ConversationItem]): The conversation, oldest first: at most its
            newest 1,000 messages (see `conversation_has_more`).
        conversation_has_more (bool): Extension (not in spec 1.0.2): true when older messages were left out of
            `conversation`; page through all of them with `GET /v1/request/{id}/messages`.
        payments (list[CancelRequestResponse200PaymentsItem]):
    """

    object_: Literal["request"]
    id: str
    status: CancelRequestResponse200Status
    routing: CancelRequestResponse200Routing
    message: str
    category: None | str
    subject: None | str
    customer: CancelRequestResponse200Customer
    contact_permission: bool
    marketplace: CancelRequestResponse200Marketplace
    budget_min: float | None
    budget_max: float | None
    language: None | str
    engaged_provider_id: None | str
    livemode: bool
    test_scenario: CancelRequestResponse200TestScenarioType0 | None
    test_clock: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    conversation: list[CancelRequestResponse200ConversationItem]
    conversation_has_more: bool
    payments: list[CancelRequestResponse200PaymentsItem]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        status: str = self.status

        routing = self.routing.to_dict()

        message = self.message

        category: None | str
        category = self.category

        subject: None | str
        subject = self.subject

        customer = self.customer.to_dict()

        contact_permission = self.contact_permission

        marketplace = self.marketplace.to_dict()

        budget_min: float | None
        budget_min = self.budget_min

        budget_max: float | None
        budget_max = self.budget_max

        language: None | str
        language = self.language

        engaged_provider_id: None | str
        engaged_provider_id = self.engaged_provider_id

        livemode = self.livemode

        test_scenario: None | str
        if isinstance(self.test_scenario, str):
            test_scenario = self.test_scenario
        else:
            test_scenario = self.test_scenario

        test_clock: None | str
        test_clock = self.test_clock

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        conversation = []
        for conversation_item_data in self.conversation:
            conversation_item = conversation_item_data.to_dict()
            conversation.append(conversation_item)

        conversation_has_more = self.conversation_has_more

        payments = []
        for payments_item_data in self.payments:
            payments_item = payments_item_data.to_dict()
            payments.append(payments_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "status": status,
                "routing": routing,
                "message": message,
                "category": category,
                "subject": subject,
                "customer": customer,
                "contact_permission": contact_permission,
                "marketplace": marketplace,
                "budget_min": budget_min,
                "budget_max": budget_max,
                "language": language,
                "engaged_provider_id": engaged_provider_id,
                "livemode": livemode,
                "test_scenario": test_scenario,
                "test_clock": test_clock,
                "created_at": created_at,
                "updated_at": updated_at,
                "conversation": conversation,
                "conversation_has_more": conversation_has_more,
                "payments": payments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cancel_request_response_200_conversation_item import (
            CancelRequestResponse200ConversationItem,
        )
        from ..models.cancel_request_response_200_customer import (
            CancelRequestResponse200Customer,
        )
        from ..models.cancel_request_response_200_marketplace import (
            CancelRequestResponse200Marketplace,
        )
        from ..models.cancel_request_response_200_payments_item import (
            CancelRequestResponse200PaymentsItem,
        )
        from ..models.cancel_request_response_200_routing import (
            CancelRequestResponse200Routing,
        )

        d = dict(src_dict)
        object_ = cast(Literal["request"], d.pop("object"))
        if object_ != "request":
            raise ValueError(f"object must match const 'request', got '{object_}'")

        id = d.pop("id")

        status = check_cancel_request_response_200_status(d.pop("status"))

        routing = CancelRequestResponse200Routing.from_dict(d.pop("routing"))

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

        customer = CancelRequestResponse200Customer.from_dict(d.pop("customer"))

        contact_permission = d.pop("contact_permission")

        marketplace = CancelRequestResponse200Marketplace.from_dict(
            d.pop("marketplace")
        )

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

        def _parse_engaged_provider_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        engaged_provider_id = _parse_engaged_provider_id(d.pop("engaged_provider_id"))

        livemode = d.pop("livemode")

        def _parse_test_scenario(
            data: object,
        ) -> CancelRequestResponse200TestScenarioType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                test_scenario_type_0 = (
                    check_cancel_request_response_200_test_scenario_type_0(data)
                )

                return test_scenario_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CancelRequestResponse200TestScenarioType0 | None, data)

        test_scenario = _parse_test_scenario(d.pop("test_scenario"))

        def _parse_test_clock(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        test_clock = _parse_test_clock(d.pop("test_clock"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        conversation = []
        _conversation = d.pop("conversation")
        for conversation_item_data in _conversation:
            conversation_item = CancelRequestResponse200ConversationItem.from_dict(
                conversation_item_data
            )

            conversation.append(conversation_item)

        conversation_has_more = d.pop("conversation_has_more")

        payments = []
        _payments = d.pop("payments")
        for payments_item_data in _payments:
            payments_item = CancelRequestResponse200PaymentsItem.from_dict(
                payments_item_data
            )

            payments.append(payments_item)

        cancel_request_response_200 = cls(
            object_=object_,
            id=id,
            status=status,
            routing=routing,
            message=message,
            category=category,
            subject=subject,
            customer=customer,
            contact_permission=contact_permission,
            marketplace=marketplace,
            budget_min=budget_min,
            budget_max=budget_max,
            language=language,
            engaged_provider_id=engaged_provider_id,
            livemode=livemode,
            test_scenario=test_scenario,
            test_clock=test_clock,
            created_at=created_at,
            updated_at=updated_at,
            conversation=conversation,
            conversation_has_more=conversation_has_more,
            payments=payments,
        )

        return cancel_request_response_200
