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

from ..models.get_request_as_staff_response_200_status import (
    GetRequestAsStaffResponse200Status,
    check_get_request_as_staff_response_200_status,
)
from ..models.get_request_as_staff_response_200_test_scenario_type_0 import (
    GetRequestAsStaffResponse200TestScenarioType0,
    check_get_request_as_staff_response_200_test_scenario_type_0,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.get_request_as_staff_response_200_automatic_routing import (
        GetRequestAsStaffResponse200AutomaticRouting,
    )
    from ..models.get_request_as_staff_response_200_cancellation import (
        GetRequestAsStaffResponse200Cancellation,
    )
    from ..models.get_request_as_staff_response_200_customer import (
        GetRequestAsStaffResponse200Customer,
    )
    from ..models.get_request_as_staff_response_200_marketplace import (
        GetRequestAsStaffResponse200Marketplace,
    )
    from ..models.get_request_as_staff_response_200_routing import (
        GetRequestAsStaffResponse200Routing,
    )


T = TypeVar("T", bound="GetRequestAsStaffResponse200")


@_attrs_define
class GetRequestAsStaffResponse200:
    """
    Attributes:
        object_ (Literal['request']):
        id (str):
        status (GetRequestAsStaffResponse200Status):
        routing (GetRequestAsStaffResponse200Routing):
        message (str):
        category (None | str):
        subject (None | str):
        customer (GetRequestAsStaffResponse200Customer):
        contact_permission (bool):
        marketplace (GetRequestAsStaffResponse200Marketplace):
        budget_min (float | None):
        budget_max (float | None):
        language (None | str): Extension (not in spec 1.0.2): the customer’s language, when given.
        engaged_provider_id (None | str): Extension (not in spec 1.0.2): the provider whose proposal the customer
            accepted, or null while no provider is engaged.
        livemode (bool): Extension: false for a request made with a test key (`hk_test_…`), which only the simulated
            provider answers.
        test_scenario (GetRequestAsStaffResponse200TestScenarioType0 | None): Extension: the scenario a test request
            runs; null on a live request.
        test_clock (None | str): Extension: the test clock the request runs on, if any; null on a live request.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        automatic_routing (GetRequestAsStaffResponse200AutomaticRouting):
        cancellation (GetRequestAsStaffResponse200Cancellation | Unset):
    """

    object_: Literal["request"]
    id: str
    status: GetRequestAsStaffResponse200Status
    routing: GetRequestAsStaffResponse200Routing
    message: str
    category: None | str
    subject: None | str
    customer: GetRequestAsStaffResponse200Customer
    contact_permission: bool
    marketplace: GetRequestAsStaffResponse200Marketplace
    budget_min: float | None
    budget_max: float | None
    language: None | str
    engaged_provider_id: None | str
    livemode: bool
    test_scenario: GetRequestAsStaffResponse200TestScenarioType0 | None
    test_clock: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    automatic_routing: GetRequestAsStaffResponse200AutomaticRouting
    cancellation: GetRequestAsStaffResponse200Cancellation | Unset = UNSET

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

        automatic_routing = self.automatic_routing.to_dict()

        cancellation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.cancellation, Unset):
            cancellation = self.cancellation.to_dict()

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
                "automatic_routing": automatic_routing,
            }
        )
        if cancellation is not UNSET:
            field_dict["cancellation"] = cancellation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_request_as_staff_response_200_automatic_routing import (
            GetRequestAsStaffResponse200AutomaticRouting,
        )
        from ..models.get_request_as_staff_response_200_cancellation import (
            GetRequestAsStaffResponse200Cancellation,
        )
        from ..models.get_request_as_staff_response_200_customer import (
            GetRequestAsStaffResponse200Customer,
        )
        from ..models.get_request_as_staff_response_200_marketplace import (
            GetRequestAsStaffResponse200Marketplace,
        )
        from ..models.get_request_as_staff_response_200_routing import (
            GetRequestAsStaffResponse200Routing,
        )

        d = dict(src_dict)
        object_ = cast(Literal["request"], d.pop("object"))
        if object_ != "request":
            raise ValueError(f"object must match const 'request', got '{object_}'")

        id = d.pop("id")

        status = check_get_request_as_staff_response_200_status(d.pop("status"))

        routing = GetRequestAsStaffResponse200Routing.from_dict(d.pop("routing"))

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

        customer = GetRequestAsStaffResponse200Customer.from_dict(d.pop("customer"))

        contact_permission = d.pop("contact_permission")

        marketplace = GetRequestAsStaffResponse200Marketplace.from_dict(
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
        ) -> GetRequestAsStaffResponse200TestScenarioType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                test_scenario_type_0 = (
                    check_get_request_as_staff_response_200_test_scenario_type_0(data)
                )

                return test_scenario_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GetRequestAsStaffResponse200TestScenarioType0 | None, data)

        test_scenario = _parse_test_scenario(d.pop("test_scenario"))

        def _parse_test_clock(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        test_clock = _parse_test_clock(d.pop("test_clock"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        automatic_routing = GetRequestAsStaffResponse200AutomaticRouting.from_dict(
            d.pop("automatic_routing")
        )

        _cancellation = d.pop("cancellation", UNSET)
        cancellation: GetRequestAsStaffResponse200Cancellation | Unset
        if isinstance(_cancellation, Unset):
            cancellation = UNSET
        else:
            cancellation = GetRequestAsStaffResponse200Cancellation.from_dict(
                _cancellation
            )

        get_request_as_staff_response_200 = cls(
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
            automatic_routing=automatic_routing,
            cancellation=cancellation,
        )

        return get_request_as_staff_response_200
