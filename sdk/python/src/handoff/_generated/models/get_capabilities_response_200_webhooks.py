from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.get_capabilities_response_200_webhooks_source import (
    GetCapabilitiesResponse200WebhooksSource,
    check_get_capabilities_response_200_webhooks_source,
)

T = TypeVar("T", bound="GetCapabilitiesResponse200Webhooks")


@_attrs_define
class GetCapabilitiesResponse200Webhooks:
    """
    Attributes:
        signature_scheme (str):
        headers (list[str]):
        retry_schedule_seconds (list[float]):
        max_attempts (int):
        timeout_ms (int):
        disable_after_seconds (int):
        event_retention_days (int):
        deliveries_paused (bool):
        source (GetCapabilitiesResponse200WebhooksSource): `webhook-dispatcher`: the settings the dispatcher reported it
            runs with (its `WEBHOOK_*` settings), asked over the bus at start and every minute; `defaults`: it has not
            answered yet, and these are the documented defaults.
    """

    signature_scheme: str
    headers: list[str]
    retry_schedule_seconds: list[float]
    max_attempts: int
    timeout_ms: int
    disable_after_seconds: int
    event_retention_days: int
    deliveries_paused: bool
    source: GetCapabilitiesResponse200WebhooksSource

    def to_dict(self) -> dict[str, Any]:
        signature_scheme = self.signature_scheme

        headers = self.headers

        retry_schedule_seconds = self.retry_schedule_seconds

        max_attempts = self.max_attempts

        timeout_ms = self.timeout_ms

        disable_after_seconds = self.disable_after_seconds

        event_retention_days = self.event_retention_days

        deliveries_paused = self.deliveries_paused

        source: str = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "signature_scheme": signature_scheme,
                "headers": headers,
                "retry_schedule_seconds": retry_schedule_seconds,
                "max_attempts": max_attempts,
                "timeout_ms": timeout_ms,
                "disable_after_seconds": disable_after_seconds,
                "event_retention_days": event_retention_days,
                "deliveries_paused": deliveries_paused,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        signature_scheme = d.pop("signature_scheme")

        headers = cast(list[str], d.pop("headers"))

        retry_schedule_seconds = cast(list[float], d.pop("retry_schedule_seconds"))

        max_attempts = d.pop("max_attempts")

        timeout_ms = d.pop("timeout_ms")

        disable_after_seconds = d.pop("disable_after_seconds")

        event_retention_days = d.pop("event_retention_days")

        deliveries_paused = d.pop("deliveries_paused")

        source = check_get_capabilities_response_200_webhooks_source(d.pop("source"))

        get_capabilities_response_200_webhooks = cls(
            signature_scheme=signature_scheme,
            headers=headers,
            retry_schedule_seconds=retry_schedule_seconds,
            max_attempts=max_attempts,
            timeout_ms=timeout_ms,
            disable_after_seconds=disable_after_seconds,
            event_retention_days=event_retention_days,
            deliveries_paused=deliveries_paused,
            source=source,
        )

        return get_capabilities_response_200_webhooks
