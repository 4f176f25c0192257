from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateNotificationSettingsBodyKinds")


@_attrs_define
class UpdateNotificationSettingsBodyKinds:
    """
    Attributes:
        request_routed (bool | Unset):
        message_received (bool | Unset):
        proposal_decided (bool | Unset):
        milestone_reviewed (bool | Unset):
        payment_completed (bool | Unset):
        deadline_reminder (bool | Unset):
    """

    request_routed: bool | Unset = UNSET
    message_received: bool | Unset = UNSET
    proposal_decided: bool | Unset = UNSET
    milestone_reviewed: bool | Unset = UNSET
    payment_completed: bool | Unset = UNSET
    deadline_reminder: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        request_routed = self.request_routed

        message_received = self.message_received

        proposal_decided = self.proposal_decided

        milestone_reviewed = self.milestone_reviewed

        payment_completed = self.payment_completed

        deadline_reminder = self.deadline_reminder

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if request_routed is not UNSET:
            field_dict["request_routed"] = request_routed
        if message_received is not UNSET:
            field_dict["message_received"] = message_received
        if proposal_decided is not UNSET:
            field_dict["proposal_decided"] = proposal_decided
        if milestone_reviewed is not UNSET:
            field_dict["milestone_reviewed"] = milestone_reviewed
        if payment_completed is not UNSET:
            field_dict["payment_completed"] = payment_completed
        if deadline_reminder is not UNSET:
            field_dict["deadline_reminder"] = deadline_reminder

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        request_routed = d.pop("request_routed", UNSET)

        message_received = d.pop("message_received", UNSET)

        proposal_decided = d.pop("proposal_decided", UNSET)

        milestone_reviewed = d.pop("milestone_reviewed", UNSET)

        payment_completed = d.pop("payment_completed", UNSET)

        deadline_reminder = d.pop("deadline_reminder", UNSET)

        update_notification_settings_body_kinds = cls(
            request_routed=request_routed,
            message_received=message_received,
            proposal_decided=proposal_decided,
            milestone_reviewed=milestone_reviewed,
            payment_completed=payment_completed,
            deadline_reminder=deadline_reminder,
        )

        return update_notification_settings_body_kinds
