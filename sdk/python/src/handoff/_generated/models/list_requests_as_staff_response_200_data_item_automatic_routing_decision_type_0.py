from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_by import (
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0By,
    check_list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_by,
)

if TYPE_CHECKING:
    from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item import (
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem,
    )
    from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_excluded import (
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0Excluded,
    )


T = TypeVar(
    "T", bound="ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0"
)


@_attrs_define
class ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0:
    """
    Attributes:
        decided_at (datetime.datetime):
        by (ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0By):
        actor (str): `system` for the rules, else the staff member.
        provider_id (None | str): Whom it offered the request; null: no one.
        summary (str):
        candidates (list[ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem]):
        excluded (ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0Excluded): Providers of the
            category passed over, counted by reason (`suspended`, `away`, `at_capacity`, `language`, `already_offered`).
    """

    decided_at: datetime.datetime
    by: ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0By
    actor: str
    provider_id: None | str
    summary: str
    candidates: list[
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem
    ]
    excluded: (
        ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0Excluded
    )

    def to_dict(self) -> dict[str, Any]:
        decided_at = self.decided_at.isoformat()

        by: str = self.by

        actor = self.actor

        provider_id: None | str
        provider_id = self.provider_id

        summary = self.summary

        candidates = []
        for candidates_item_data in self.candidates:
            candidates_item = candidates_item_data.to_dict()
            candidates.append(candidates_item)

        excluded = self.excluded.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "decided_at": decided_at,
                "by": by,
                "actor": actor,
                "provider_id": provider_id,
                "summary": summary,
                "candidates": candidates,
                "excluded": excluded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item import (
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem,
        )
        from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_excluded import (
            ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0Excluded,
        )

        d = dict(src_dict)
        decided_at = datetime.datetime.fromisoformat(d.pop("decided_at"))

        by = check_list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_by(
            d.pop("by")
        )

        actor = d.pop("actor")

        def _parse_provider_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_id = _parse_provider_id(d.pop("provider_id"))

        summary = d.pop("summary")

        candidates = []
        _candidates = d.pop("candidates")
        for candidates_item_data in _candidates:
            candidates_item = ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem.from_dict(
                candidates_item_data
            )

            candidates.append(candidates_item)

        excluded = ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0Excluded.from_dict(
            d.pop("excluded")
        )

        list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0 = cls(
            decided_at=decided_at,
            by=by,
            actor=actor,
            provider_id=provider_id,
            summary=summary,
            candidates=candidates,
            excluded=excluded,
        )

        return list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0
