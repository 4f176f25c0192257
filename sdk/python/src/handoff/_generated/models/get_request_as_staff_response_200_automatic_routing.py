from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.get_request_as_staff_response_200_automatic_routing_queue_reason_type_0 import (
    GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0,
    check_get_request_as_staff_response_200_automatic_routing_queue_reason_type_0,
)
from ..models.get_request_as_staff_response_200_automatic_routing_state import (
    GetRequestAsStaffResponse200AutomaticRoutingState,
    check_get_request_as_staff_response_200_automatic_routing_state,
)

if TYPE_CHECKING:
    from ..models.get_request_as_staff_response_200_automatic_routing_decision_type_0 import (
        GetRequestAsStaffResponse200AutomaticRoutingDecisionType0,
    )
    from ..models.get_request_as_staff_response_200_automatic_routing_offers_item import (
        GetRequestAsStaffResponse200AutomaticRoutingOffersItem,
    )


T = TypeVar("T", bound="GetRequestAsStaffResponse200AutomaticRouting")


@_attrs_define
class GetRequestAsStaffResponse200AutomaticRouting:
    """
    Attributes:
        state (GetRequestAsStaffResponse200AutomaticRoutingState): `routing`: the rules are choosing. `offered`: an
            offer waits for its provider. `accepted`: a provider accepted. `queued`: waiting for staff (`queue_reason` says
            why). `manual`: staff route this request by hand (a `PATCH` of its routing, or `stop`).
        queue_reason (GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0 | None):
        queue_detail (None | str): The queue reason in plain words.
        offers_made (int):
        max_offers (int):
        offers (list[GetRequestAsStaffResponse200AutomaticRoutingOffersItem]): Oldest first; the latest 25.
        decision (GetRequestAsStaffResponse200AutomaticRoutingDecisionType0 | None): The latest decision.
    """

    state: GetRequestAsStaffResponse200AutomaticRoutingState
    queue_reason: GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0 | None
    queue_detail: None | str
    offers_made: int
    max_offers: int
    offers: list[GetRequestAsStaffResponse200AutomaticRoutingOffersItem]
    decision: GetRequestAsStaffResponse200AutomaticRoutingDecisionType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.get_request_as_staff_response_200_automatic_routing_decision_type_0 import (
            GetRequestAsStaffResponse200AutomaticRoutingDecisionType0,
        )

        state: str = self.state

        queue_reason: None | str
        if isinstance(self.queue_reason, str):
            queue_reason = self.queue_reason
        else:
            queue_reason = self.queue_reason

        queue_detail: None | str
        queue_detail = self.queue_detail

        offers_made = self.offers_made

        max_offers = self.max_offers

        offers = []
        for offers_item_data in self.offers:
            offers_item = offers_item_data.to_dict()
            offers.append(offers_item)

        decision: dict[str, Any] | None
        if isinstance(
            self.decision, GetRequestAsStaffResponse200AutomaticRoutingDecisionType0
        ):
            decision = self.decision.to_dict()
        else:
            decision = self.decision

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "queue_reason": queue_reason,
                "queue_detail": queue_detail,
                "offers_made": offers_made,
                "max_offers": max_offers,
                "offers": offers,
                "decision": decision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_request_as_staff_response_200_automatic_routing_decision_type_0 import (
            GetRequestAsStaffResponse200AutomaticRoutingDecisionType0,
        )
        from ..models.get_request_as_staff_response_200_automatic_routing_offers_item import (
            GetRequestAsStaffResponse200AutomaticRoutingOffersItem,
        )

        d = dict(src_dict)
        state = check_get_request_as_staff_response_200_automatic_routing_state(
            d.pop("state")
        )

        def _parse_queue_reason(
            data: object,
        ) -> GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                queue_reason_type_0 = check_get_request_as_staff_response_200_automatic_routing_queue_reason_type_0(
                    data
                )

                return queue_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                GetRequestAsStaffResponse200AutomaticRoutingQueueReasonType0 | None,
                data,
            )

        queue_reason = _parse_queue_reason(d.pop("queue_reason"))

        def _parse_queue_detail(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        queue_detail = _parse_queue_detail(d.pop("queue_detail"))

        offers_made = d.pop("offers_made")

        max_offers = d.pop("max_offers")

        offers = []
        _offers = d.pop("offers")
        for offers_item_data in _offers:
            offers_item = (
                GetRequestAsStaffResponse200AutomaticRoutingOffersItem.from_dict(
                    offers_item_data
                )
            )

            offers.append(offers_item)

        def _parse_decision(
            data: object,
        ) -> GetRequestAsStaffResponse200AutomaticRoutingDecisionType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decision_type_0 = (
                    GetRequestAsStaffResponse200AutomaticRoutingDecisionType0.from_dict(
                        data
                    )
                )

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                GetRequestAsStaffResponse200AutomaticRoutingDecisionType0 | None, data
            )

        decision = _parse_decision(d.pop("decision"))

        get_request_as_staff_response_200_automatic_routing = cls(
            state=state,
            queue_reason=queue_reason,
            queue_detail=queue_detail,
            offers_made=offers_made,
            max_offers=max_offers,
            offers=offers,
            decision=decision,
        )

        return get_request_as_staff_response_200_automatic_routing
