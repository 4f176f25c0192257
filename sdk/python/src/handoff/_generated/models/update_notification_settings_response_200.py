from __future__ import annotations

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

from ..models.update_notification_settings_response_200_email_status import (
    UpdateNotificationSettingsResponse200EmailStatus,
    check_update_notification_settings_response_200_email_status,
)

if TYPE_CHECKING:
    from ..models.update_notification_settings_response_200_kinds import (
        UpdateNotificationSettingsResponse200Kinds,
    )


T = TypeVar("T", bound="UpdateNotificationSettingsResponse200")


@_attrs_define
class UpdateNotificationSettingsResponse200:
    """
    Attributes:
        object_ (Literal['notification_settings']):
        email (str):
        email_status (UpdateNotificationSettingsResponse200EmailStatus):
        kinds (UpdateNotificationSettingsResponse200Kinds):
    """

    object_: Literal["notification_settings"]
    email: str
    email_status: UpdateNotificationSettingsResponse200EmailStatus
    kinds: UpdateNotificationSettingsResponse200Kinds

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        email = self.email

        email_status: str = self.email_status

        kinds = self.kinds.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "email": email,
                "email_status": email_status,
                "kinds": kinds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.update_notification_settings_response_200_kinds import (
            UpdateNotificationSettingsResponse200Kinds,
        )

        d = dict(src_dict)
        object_ = cast(Literal["notification_settings"], d.pop("object"))
        if object_ != "notification_settings":
            raise ValueError(
                f"object must match const 'notification_settings', got '{object_}'"
            )

        email = d.pop("email")

        email_status = check_update_notification_settings_response_200_email_status(
            d.pop("email_status")
        )

        kinds = UpdateNotificationSettingsResponse200Kinds.from_dict(d.pop("kinds"))

        update_notification_settings_response_200 = cls(
            object_=object_,
            email=email,
            email_status=email_status,
            kinds=kinds,
        )

        return update_notification_settings_response_200
