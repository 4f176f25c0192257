"""Verifying Handoff's webhook deliveries (Standard Webhooks), with the ``standardwebhooks``
package."""

from __future__ import annotations

from collections.abc import Mapping

from standardwebhooks.webhooks import Webhook

from .models import Event

_SIGNED_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")


def verify_webhook(secret: str, body: bytes | str, headers: Mapping[str, str]) -> Event:
    """Verifies a delivery from Handoff and returns its event. Give it the body exactly as it
    arrived (before any JSON parsing) and the request's headers (any case); it raises
    ``standardwebhooks.webhooks.WebhookVerificationError`` when the signature, the id or the
    timestamp (5 minutes either way) does not check out."""
    lowered = {name.lower(): value for name, value in headers.items()}
    signed = {name: lowered.get(name, "") for name in _SIGNED_HEADERS}
    payload = Webhook(secret).verify(body, signed)
    return Event.from_dict(payload)
