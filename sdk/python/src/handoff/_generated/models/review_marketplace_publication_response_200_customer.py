from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReviewMarketplacePublicationResponse200Customer")


@_attrs_define
class ReviewMarketplacePublicationResponse200Customer:
    """
    Attributes:
        name (None | str):
        email (None | str):
        company (None | str):
        website (None | str):
    """

    name: None | str
    email: None | str
    company: None | str
    website: None | str

    def to_dict(self) -> dict[str, Any]:
        name: None | str
        name = self.name

        email: None | str
        email = self.email

        company: None | str
        company = self.company

        website: None | str
        website = self.website

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "email": email,
                "company": company,
                "website": website,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        def _parse_company(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        company = _parse_company(d.pop("company"))

        def _parse_website(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        website = _parse_website(d.pop("website"))

        review_marketplace_publication_response_200_customer = cls(
            name=name,
            email=email,
            company=company,
            website=website,
        )

        return review_marketplace_publication_response_200_customer
