from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.update_notification_settings_body_kinds import (
        UpdateNotificationSettingsBodyKinds,
    )


T = TypeVar("T", bound="UpdateNotificationSettingsBody")


@_attrs_define
class UpdateNotificationSettingsBody:
    """
    Attributes:
        kinds (UpdateNotificationSettingsBodyKinds):
    """

    kinds: UpdateNotificationSettingsBodyKinds

    def to_dict(self) -> dict[str, Any]:
        kinds = self.kinds.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kinds": kinds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.update_notification_settings_body_kinds import (
            UpdateNotificationSettingsBodyKinds,
        )

        d = dict(src_dict)
        kinds = UpdateNotificationSettingsBodyKinds.from_dict(d.pop("kinds"))

        update_notification_settings_body = cls(
            kinds=kinds,
        )

        return update_notification_settings_body
