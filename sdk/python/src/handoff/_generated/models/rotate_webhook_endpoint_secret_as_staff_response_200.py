from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.rotate_webhook_endpoint_secret_as_staff_response_200_disabled_reason_type_0 import (
    RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0,
    check_rotate_webhook_endpoint_secret_as_staff_response_200_disabled_reason_type_0,
)
from ..models.rotate_webhook_endpoint_secret_as_staff_response_200_event_types_item import (
    RotateWebhookEndpointSecretAsStaffResponse200EventTypesItem,
    check_rotate_webhook_endpoint_secret_as_staff_response_200_event_types_item,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rotate_webhook_endpoint_secret_as_staff_response_200a2a import (
        RotateWebhookEndpointSecretAsStaffResponse200A2A,
    )


T = TypeVar("T", bound="RotateWebhookEndpointSecretAsStaffResponse200")


@_attrs_define
class RotateWebhookEndpointSecretAsStaffResponse200:
    """
    Attributes:
        object_ (Literal['webhook_endpoint']):
        id (str):
        url (str):
        event_types (list[RotateWebhookEndpointSecretAsStaffResponse200EventTypesItem]):
        description (None | str):
        enabled (bool):
        disabled_reason (None | RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        previous_secret_expires_at (datetime.datetime | None):
        secret (str):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
        a2a (RotateWebhookEndpointSecretAsStaffResponse200A2A | Unset): Extension: present on an endpoint an A2A push
            notification config made (docs/a2a.md): it delivers only that task's request's events, each as the A2A update it
            implies.
    """

    object_: Literal["webhook_endpoint"]
    id: str
    url: str
    event_types: list[RotateWebhookEndpointSecretAsStaffResponse200EventTypesItem]
    description: None | str
    enabled: bool
    disabled_reason: (
        None | RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0
    )
    created_at: datetime.datetime
    updated_at: datetime.datetime
    previous_secret_expires_at: datetime.datetime | None
    secret: str
    livemode: bool | Unset = UNSET
    a2a: RotateWebhookEndpointSecretAsStaffResponse200A2A | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        url = self.url

        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item: str = event_types_item_data
            event_types.append(event_types_item)

        description: None | str
        description = self.description

        enabled = self.enabled

        disabled_reason: None | str
        if isinstance(self.disabled_reason, str):
            disabled_reason = self.disabled_reason
        else:
            disabled_reason = self.disabled_reason

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        secret = self.secret

        livemode = self.livemode

        a2a: dict[str, Any] | Unset = UNSET
        if not isinstance(self.a2a, Unset):
            a2a = self.a2a.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "url": url,
                "event_types": event_types,
                "description": description,
                "enabled": enabled,
                "disabled_reason": disabled_reason,
                "created_at": created_at,
                "updated_at": updated_at,
                "previous_secret_expires_at": previous_secret_expires_at,
                "secret": secret,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode
        if a2a is not UNSET:
            field_dict["a2a"] = a2a

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rotate_webhook_endpoint_secret_as_staff_response_200a2a import (
            RotateWebhookEndpointSecretAsStaffResponse200A2A,
        )

        d = dict(src_dict)
        object_ = cast(Literal["webhook_endpoint"], d.pop("object"))
        if object_ != "webhook_endpoint":
            raise ValueError(
                f"object must match const 'webhook_endpoint', got '{object_}'"
            )

        id = d.pop("id")

        url = d.pop("url")

        event_types = []
        _event_types = d.pop("event_types")
        for event_types_item_data in _event_types:
            event_types_item = check_rotate_webhook_endpoint_secret_as_staff_response_200_event_types_item(
                event_types_item_data
            )

            event_types.append(event_types_item)

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        enabled = d.pop("enabled")

        def _parse_disabled_reason(
            data: object,
        ) -> None | RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_reason_type_0 = check_rotate_webhook_endpoint_secret_as_staff_response_200_disabled_reason_type_0(
                    data
                )

                return disabled_reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None | RotateWebhookEndpointSecretAsStaffResponse200DisabledReasonType0,
                data,
            )

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(
                    data
                )

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(
            d.pop("previous_secret_expires_at")
        )

        secret = d.pop("secret")

        livemode = d.pop("livemode", UNSET)

        _a2a = d.pop("a2a", UNSET)
        a2a: RotateWebhookEndpointSecretAsStaffResponse200A2A | Unset
        if isinstance(_a2a, Unset):
            a2a = UNSET
        else:
            a2a = RotateWebhookEndpointSecretAsStaffResponse200A2A.from_dict(_a2a)

        rotate_webhook_endpoint_secret_as_staff_response_200 = cls(
            object_=object_,
            id=id,
            url=url,
            event_types=event_types,
            description=description,
            enabled=enabled,
            disabled_reason=disabled_reason,
            created_at=created_at,
            updated_at=updated_at,
            previous_secret_expires_at=previous_secret_expires_at,
            secret=secret,
            livemode=livemode,
            a2a=a2a,
        )

        return rotate_webhook_endpoint_secret_as_staff_response_200
