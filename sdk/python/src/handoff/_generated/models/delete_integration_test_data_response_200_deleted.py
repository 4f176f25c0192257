from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeleteIntegrationTestDataResponse200Deleted")


@_attrs_define
class DeleteIntegrationTestDataResponse200Deleted:
    """How many of each kind of object this call deleted, by every service.

    Attributes:
        messages (int):
        message_files (int):
        proposals (int):
        jobs (int):
        milestones (int):
        deliverables (int):
        deliverable_files (int):
        disputes (int):
        payment_requests (int):
        payments (int):
        webhook_endpoints (int):
        webhook_events (int):
        webhook_deliveries (int):
        webhook_attempts (int):
    """

    messages: int
    message_files: int
    proposals: int
    jobs: int
    milestones: int
    deliverables: int
    deliverable_files: int
    disputes: int
    payment_requests: int
    payments: int
    webhook_endpoints: int
    webhook_events: int
    webhook_deliveries: int
    webhook_attempts: int

    def to_dict(self) -> dict[str, Any]:
        messages = self.messages

        message_files = self.message_files

        proposals = self.proposals

        jobs = self.jobs

        milestones = self.milestones

        deliverables = self.deliverables

        deliverable_files = self.deliverable_files

        disputes = self.disputes

        payment_requests = self.payment_requests

        payments = self.payments

        webhook_endpoints = self.webhook_endpoints

        webhook_events = self.webhook_events

        webhook_deliveries = self.webhook_deliveries

        webhook_attempts = self.webhook_attempts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messages": messages,
                "message_files": message_files,
                "proposals": proposals,
                "jobs": jobs,
                "milestones": milestones,
                "deliverables": deliverables,
                "deliverable_files": deliverable_files,
                "disputes": disputes,
                "payment_requests": payment_requests,
                "payments": payments,
                "webhook_endpoints": webhook_endpoints,
                "webhook_events": webhook_events,
                "webhook_deliveries": webhook_deliveries,
                "webhook_attempts": webhook_attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        messages = d.pop("messages")

        message_files = d.pop("message_files")

        proposals = d.pop("proposals")

        jobs = d.pop("jobs")

        milestones = d.pop("milestones")

        deliverables = d.pop("deliverables")

        deliverable_files = d.pop("deliverable_files")

        disputes = d.pop("disputes")

        payment_requests = d.pop("payment_requests")

        payments = d.pop("payments")

        webhook_endpoints = d.pop("webhook_endpoints")

        webhook_events = d.pop("webhook_events")

        webhook_deliveries = d.pop("webhook_deliveries")

        webhook_attempts = d.pop("webhook_attempts")

        delete_integration_test_data_response_200_deleted = cls(
            messages=messages,
            message_files=message_files,
            proposals=proposals,
            jobs=jobs,
            milestones=milestones,
            deliverables=deliverables,
            deliverable_files=deliverable_files,
            disputes=disputes,
            payment_requests=payment_requests,
            payments=payments,
            webhook_endpoints=webhook_endpoints,
            webhook_events=webhook_events,
            webhook_deliveries=webhook_deliveries,
            webhook_attempts=webhook_attempts,
        )

        return delete_integration_test_data_response_200_deleted
