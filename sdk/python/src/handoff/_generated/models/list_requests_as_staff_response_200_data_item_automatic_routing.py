from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_queue_reason_type_0 import (
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0,
    check_list_requests_as_staff_response_200_data_item_automatic_routing_queue_reason_type_0,
)
from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_state import (
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingState,
    check_list_requests_as_staff_response_200_data_item_automatic_routing_state,
)

if TYPE_CHECKING:
    from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0 import (
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0,
    )
    from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_offers_item import (
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItem,
    )


T = TypeVar("T", bound="ListRequestsAsStaffResponse200DataItemAutomaticRouting")


@_attrs_define
class ListRequestsAsStaffResponse200DataItemAutomaticRouting:
    """
    Attributes:
        state (ListRequestsAsStaffResponse200DataItemAutomaticRoutingState): `routing`: the rules are choosing.
            `offered`: an offer waits for its provider. `accepted`: a provider accepted. `queued`: waiting for staff
            (`queue_reason` says why). `manual`: staff route this request by hand (a `PATCH` of its routing, or `stop`).
        queue_reason (ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0 | None):
        queue_detail (None | str): The queue reason in plain words.
        offers_made (int):
        max_offers (int):
        offers (list[ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItem]): Oldest first; the latest 25.
        decision (ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0 | None): The latest decision.
    """

    state: ListRequestsAsStaffResponse200DataItemAutomaticRoutingState
    queue_reason: (
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0 | None
    )
    queue_detail: None | str
    offers_made: int
    max_offers: int
    offers: list[ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItem]
    decision: ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0 import (
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0,
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
            self.decision,
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0,
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
        from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0 import (
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0,
        )
        from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_offers_item import (
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItem,
        )

        d = dict(src_dict)
        state = (
            check_list_requests_as_staff_response_200_data_item_automatic_routing_state(
                d.pop("state")
            )
        )

        def _parse_queue_reason(
            data: object,
        ) -> (
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                queue_reason_type_0 = check_list_requests_as_staff_response_200_data_item_automatic_routing_queue_reason_type_0(
                    data
                )

                return queue_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                ListRequestsAsStaffResponse200DataItemAutomaticRoutingQueueReasonType0
                | None,
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
            offers_item = ListRequestsAsStaffResponse200DataItemAutomaticRoutingOffersItem.from_dict(
                offers_item_data
            )

            offers.append(offers_item)

        def _parse_decision(
            data: object,
        ) -> ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decision_type_0 = ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0.from_dict(
                    data
                )

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0
                | None,
                data,
            )

        decision = _parse_decision(d.pop("decision"))

        list_requests_as_staff_response_200_data_item_automatic_routing = cls(
            state=state,
            queue_reason=queue_reason,
            queue_detail=queue_detail,
            offers_made=offers_made,
            max_offers=max_offers,
            offers=offers,
            decision=decision,
        )

        return list_requests_as_staff_response_200_data_item_automatic_routing
