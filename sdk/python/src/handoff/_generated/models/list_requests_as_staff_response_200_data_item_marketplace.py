from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.list_requests_as_staff_response_200_data_item_marketplace_review import (
    ListRequestsAsStaffResponse200DataItemMarketplaceReview,
    check_list_requests_as_staff_response_200_data_item_marketplace_review,
)

T = TypeVar("T", bound="ListRequestsAsStaffResponse200DataItemMarketplace")


@_attrs_define
class ListRequestsAsStaffResponse200DataItemMarketplace:
    """
    Attributes:
        opted_in (bool):
        review (ListRequestsAsStaffResponse200DataItemMarketplaceReview):
        reason (None | str):
    """

    opted_in: bool
    review: ListRequestsAsStaffResponse200DataItemMarketplaceReview
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

        review = check_list_requests_as_staff_response_200_data_item_marketplace_review(
            d.pop("review")
        )

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        list_requests_as_staff_response_200_data_item_marketplace = cls(
            opted_in=opted_in,
            review=review,
            reason=reason,
        )

        return list_requests_as_staff_response_200_data_item_marketplace
