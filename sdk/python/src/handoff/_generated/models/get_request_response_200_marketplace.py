from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.get_request_response_200_marketplace_review import (
    GetRequestResponse200MarketplaceReview,
    check_get_request_response_200_marketplace_review,
)

T = TypeVar("T", bound="GetRequestResponse200Marketplace")


@_attrs_define
class GetRequestResponse200Marketplace:
    """
    Attributes:
        opted_in (bool):
        review (GetRequestResponse200MarketplaceReview):
        reason (None | str):
    """

    opted_in: bool
    review: GetRequestResponse200MarketplaceReview
    reason: None | str

    def to_dict(self) -> dict[str, Any]:
        opted_in = self.opted_in

        review: str = self.review

        reason: None | str
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "opted_in": opted_in,
                "review": review,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        opted_in = d.pop("opted_in")

        review = check_get_request_response_200_marketplace_review(d.pop("review"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        get_request_response_200_marketplace = cls(
            opted_in=opted_in,
            review=review,
            reason=reason,
        )

        return get_request_response_200_marketplace
