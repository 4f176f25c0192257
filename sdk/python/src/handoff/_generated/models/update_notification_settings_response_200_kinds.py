from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UpdateNotificationSettingsResponse200Kinds")


@_attrs_define
class UpdateNotificationSettingsResponse200Kinds:
    """
    Attributes:
        request_routed (bool):
        message_received (bool):
        proposal_decided (bool):
        milestone_reviewed (bool):
        payment_completed (bool):
        deadline_reminder (bool):
    """

    request_routed: bool
    message_received: bool
    proposal_decided: bool
    milestone_reviewed: bool
    payment_completed: bool
    deadline_reminder: bool

    def to_dict(self) -> dict[str, Any]:
        request_routed = self.request_routed

        message_received = self.message_received

        proposal_decided = self.proposal_decided

        milestone_reviewed = self.milestone_reviewed

        payment_completed = self.payment_completed

        deadline_reminder = self.deadline_reminder

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "request_routed": request_routed,
                "message_received": message_received,
                "proposal_decided": proposal_decided,
                "milestone_reviewed": milestone_reviewed,
                "payment_completed": payment_completed,
                "deadline_reminder": deadline_reminder,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        request_routed = d.pop("request_routed")

        message_received = d.pop("message_received")

        proposal_decided = d.pop("proposal_decided")

        milestone_reviewed = d.pop("milestone_reviewed")

        payment_completed = d.pop("payment_completed")

        deadline_reminder = d.pop("deadline_reminder")

        update_notification_settings_response_200_kinds = cls(
            request_routed=request_routed,
            message_received=message_received,
            proposal_decided=proposal_decided,
            milestone_reviewed=milestone_reviewed,
            payment_completed=payment_completed,
            deadline_reminder=deadline_reminder,
        )

        return update_notification_settings_response_200_kinds
