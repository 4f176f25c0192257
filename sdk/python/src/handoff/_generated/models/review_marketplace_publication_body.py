from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.review_marketplace_publication_body_decision import (
    ReviewMarketplacePublicationBodyDecision,
    check_review_marketplace_publication_body_decision,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReviewMarketplacePublicationBody")


@_attrs_define
class ReviewMarketplacePublicationBody:
    """
    Attributes:
        decision (ReviewMarketplacePublicationBodyDecision):
        reason (str | Unset):
    """

    decision: ReviewMarketplacePublicationBodyDecision
    reason: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "decision": decision,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision = check_review_marketplace_publication_body_decision(d.pop("decision"))

        reason = d.pop("reason", UNSET)

        review_marketplace_publication_body = cls(
            decision=decision,
            reason=reason,
        )

        return review_marketplace_publication_body
