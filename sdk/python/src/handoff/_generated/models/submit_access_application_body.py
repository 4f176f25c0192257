from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.submit_access_application_body_requested_scopes_item import (
    SubmitAccessApplicationBodyRequestedScopesItem,
    check_submit_access_application_body_requested_scopes_item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SubmitAccessApplicationBody")


@_attrs_define
class SubmitAccessApplicationBody:
    """
    Attributes:
        app_name (str):
        description (str):
        contact_email (str):
        requested_scopes (list[SubmitAccessApplicationBodyRequestedScopesItem]):
        website (str | Unset):
    """

    app_name: str
    description: str
    contact_email: str
    requested_scopes: list[SubmitAccessApplicationBodyRequestedScopesItem]
    website: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        app_name = self.app_name

        description = self.description

        contact_email = self.contact_email

        requested_scopes = []
        for requested_scopes_item_data in self.requested_scopes:
            requested_scopes_item: str = requested_scopes_item_data
            requested_scopes.append(requested_scopes_item)

        website = self.website

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "app_name": app_name,
                "description": description,
                "contact_email": contact_email,
                "requested_scopes": requested_scopes,
            }
        )
        if website is not UNSET:
            field_dict["website"] = website

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        app_name = d.pop("app_name")

        description = d.pop("description")

        contact_email = d.pop("contact_email")

        requested_scopes = []
        _requested_scopes = d.pop("requested_scopes")
        for requested_scopes_item_data in _requested_scopes:
            requested_scopes_item = (
                check_submit_access_application_body_requested_scopes_item(
                    requested_scopes_item_data
                )
            )

            requested_scopes.append(requested_scopes_item)

        website = d.pop("website", UNSET)

        submit_access_application_body = cls(
            app_name=app_name,
            description=description,
            contact_email=contact_email,
            requested_scopes=requested_scopes,
            website=website,
        )

        return submit_access_application_body
