from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.list_access_applications_response_200_data_item_granted_scopes_type_0_item import (
    ListAccessApplicationsResponse200DataItemGrantedScopesType0Item,
    check_list_access_applications_response_200_data_item_granted_scopes_type_0_item,
)
from ..models.list_access_applications_response_200_data_item_requested_scopes_item import (
    ListAccessApplicationsResponse200DataItemRequestedScopesItem,
    check_list_access_applications_response_200_data_item_requested_scopes_item,
)
from ..models.list_access_applications_response_200_data_item_status import (
    ListAccessApplicationsResponse200DataItemStatus,
    check_list_access_applications_response_200_data_item_status,
)

T = TypeVar("T", bound="ListAccessApplicationsResponse200DataItem")


@_attrs_define
class ListAccessApplicationsResponse200DataItem:
    """
    Attributes:
        object_ (Literal['access_application']):
        id (str):
        status (ListAccessApplicationsResponse200DataItemStatus):
        app_name (str):
        description (str):
        contact_email (str):
        website (None | str):
        requested_scopes (list[ListAccessApplicationsResponse200DataItemRequestedScopesItem]):
        granted_scopes (list[ListAccessApplicationsResponse200DataItemGrantedScopesType0Item] | None):
        rejection_reason (None | str):
        integration_id (None | str):
        key_claimed (bool):
        created_at (datetime.datetime):
        decided_at (datetime.datetime | None):
        decided_by (None | str):
    """

    object_: Literal["access_application"]
    id: str
    status: ListAccessApplicationsResponse200DataItemStatus
    app_name: str
    description: str
    contact_email: str
    website: None | str
    requested_scopes: list[ListAccessApplicationsResponse200DataItemRequestedScopesItem]
    granted_scopes: (
        list[ListAccessApplicationsResponse200DataItemGrantedScopesType0Item] | None
    )
    rejection_reason: None | str
    integration_id: None | str
    key_claimed: bool
    created_at: datetime.datetime
    decided_at: datetime.datetime | None
    decided_by: None | str

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        status: str = self.status

        app_name = self.app_name

        description = self.description

        contact_email = self.contact_email

        website: None | str
        website = self.website

        requested_scopes = []
        for requested_scopes_item_data in self.requested_scopes:
            requested_scopes_item: str = requested_scopes_item_data
            requested_scopes.append(requested_scopes_item)

        granted_scopes: list[str] | None
        if isinstance(self.granted_scopes, list):
            granted_scopes = []
            for granted_scopes_type_0_item_data in self.granted_scopes:
                granted_scopes_type_0_item: str = granted_scopes_type_0_item_data
                granted_scopes.append(granted_scopes_type_0_item)

        else:
            granted_scopes = self.granted_scopes

        rejection_reason: None | str
        rejection_reason = self.rejection_reason

        integration_id: None | str
        integration_id = self.integration_id

        key_claimed = self.key_claimed

        created_at = self.created_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        decided_by: None | str
        decided_by = self.decided_by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "status": status,
                "app_name": app_name,
                "description": description,
                "contact_email": contact_email,
                "website": website,
                "requested_scopes": requested_scopes,
                "granted_scopes": granted_scopes,
                "rejection_reason": rejection_reason,
                "integration_id": integration_id,
                "key_claimed": key_claimed,
                "created_at": created_at,
                "decided_at": decided_at,
                "decided_by": decided_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["access_application"], d.pop("object"))
        if object_ != "access_application":
            raise ValueError(
                f"object must match const 'access_application', got '{object_}'"
            )

        id = d.pop("id")

        status = check_list_access_applications_response_200_data_item_status(
            d.pop("status")
        )

        app_name = d.pop("app_name")

        description = d.pop("description")

        contact_email = d.pop("contact_email")

        def _parse_website(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        website = _parse_website(d.pop("website"))

        requested_scopes = []
        _requested_scopes = d.pop("requested_scopes")
        for requested_scopes_item_data in _requested_scopes:
            requested_scopes_item = check_list_access_applications_response_200_data_item_requested_scopes_item(
                requested_scopes_item_data
            )

            requested_scopes.append(requested_scopes_item)

        def _parse_granted_scopes(
            data: object,
        ) -> (
            list[ListAccessApplicationsResponse200DataItemGrantedScopesType0Item] | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                granted_scopes_type_0 = []
                _granted_scopes_type_0 = data
                for granted_scopes_type_0_item_data in _granted_scopes_type_0:
                    granted_scopes_type_0_item = check_list_access_applications_response_200_data_item_granted_scopes_type_0_item(
                        granted_scopes_type_0_item_data
                    )

                    granted_scopes_type_0.append(granted_scopes_type_0_item)

                return granted_scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[ListAccessApplicationsResponse200DataItemGrantedScopesType0Item]
                | None,
                data,
            )

        granted_scopes = _parse_granted_scopes(d.pop("granted_scopes"))

        def _parse_rejection_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rejection_reason = _parse_rejection_reason(d.pop("rejection_reason"))

        def _parse_integration_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        integration_id = _parse_integration_id(d.pop("integration_id"))

        key_claimed = d.pop("key_claimed")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        def _parse_decided_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decided_by = _parse_decided_by(d.pop("decided_by"))

        list_access_applications_response_200_data_item = cls(
            object_=object_,
            id=id,
            status=status,
            app_name=app_name,
            description=description,
            contact_email=contact_email,
            website=website,
            requested_scopes=requested_scopes,
            granted_scopes=granted_scopes,
            rejection_reason=rejection_reason,
            integration_id=integration_id,
            key_claimed=key_claimed,
            created_at=created_at,
            decided_at=decided_at,
            decided_by=decided_by,
        )

        return list_access_applications_response_200_data_item
