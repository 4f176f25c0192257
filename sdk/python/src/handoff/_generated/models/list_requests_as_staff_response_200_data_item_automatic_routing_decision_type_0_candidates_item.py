from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item_outcome import (
    ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItemOutcome,
    check_list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item_outcome,
)

T = TypeVar(
    "T",
    bound="ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem",
)


@_attrs_define
class ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItem:
    """
    Attributes:
        provider_id (str):
        name (str):
        outcome (ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItemOutcome):
        reasons (list[str]): In plain words: what qualified it, its load, score and turn, or what excluded it.
        load (int):
        capacity (int):
        score (float):
    """

    provider_id: str
    name: str
    outcome: ListRequestsAsStaffResponse200DataItemAutomaticRoutingDecisionType0CandidatesItemOutcome
    reasons: list[str]
    load: int
    capacity: int
    score: float

    def to_dict(self) -> dict[str, Any]:
        provider_id = self.provider_id

        name = self.name

        outcome: str = self.outcome

        reasons = self.reasons

        load = self.load

        capacity = self.capacity

        score = self.score

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider_id": provider_id,
                "name": name,
                "outcome": outcome,
                "reasons": reasons,
                "load": load,
                "capacity": capacity,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        provider_id = d.pop("provider_id")

        name = d.pop("name")

        outcome = check_list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item_outcome(
            d.pop("outcome")
        )

        reasons = cast(list[str], d.pop("reasons"))

        load = d.pop("load")

        capacity = d.pop("capacity")

        score = d.pop("score")

        list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item = cls(
            provider_id=provider_id,
            name=name,
            outcome=outcome,
            reasons=reasons,
            load=load,
            capacity=capacity,
            score=score,
        )

        return list_requests_as_staff_response_200_data_item_automatic_routing_decision_type_0_candidates_item
