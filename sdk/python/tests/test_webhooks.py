"""``verify_webhook`` on real signed deliveries from the stack's webhook dispatcher, and on the
Standard Webhooks specification's own example."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

import pytest
from support import Answer, loopback_server

from handoff import Handoff, WebhookVerificationError, verify_webhook

# The example of the Standard Webhooks specification (its "Verifying signatures" section), as
# its reference libraries test it; the timestamp is the one signed.
SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
SPEC_TIMESTAMP = "1614265330"
SPEC_BODY = '{"test": 2432232314}'
SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def _sign(secret: str, msg_id: str, timestamp: str, body: str) -> str:
    """A signature made as the specification says, without the library under test."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.{body}".encode()
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def test_the_signing_of_the_specifications_example() -> None:
    assert _sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY) == SPEC_SIGNATURE


def test_a_delivery_signed_as_the_specification_says_verifies_and_is_an_event() -> None:
    body = json.dumps(
        {
            "id": "evt_01",
            "type": "request.created",
            "timestamp": "2026-12-06T02:16:47.424Z",
            "livemode": False,
            "data": {"request_id": "req_01", "sequence": 1, "object": {"status": "submitted"}},
        }
    )
    now = str(int(time.time()))
    headers = {
        "Webhook-Id": SPEC_ID,
        "Webhook-Timestamp": now,
        "Webhook-Signature": f"v1,bm90IGl0 {_sign(SPEC_SECRET, SPEC_ID, now, body)}",
    }
    event = verify_webhook(SPEC_SECRET, body.encode(), headers)
    assert (event.type_, event.data.sequence, event.data.object_["status"]) == (
        "request.created",
        1,
        "submitted",
    )
    # The specification's own example, years old now: outside the 5-minute tolerance.
    old = {
        "webhook-id": SPEC_ID,
        "webhook-timestamp": SPEC_TIMESTAMP,
        "webhook-signature": SPEC_SIGNATURE,
    }
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SPEC_SECRET, SPEC_BODY, old)


def test_a_real_delivery_verifies_and_a_tampered_one_does_not(base_url: str, test_key: str) -> None:
    with (
        loopback_server(lambda _call: Answer(204, b"")) as receiver,
        Handoff(test_key, base_url=base_url) as client,
    ):
        endpoint = client.webhook_endpoints.create(
            {"url": f"{receiver.url}/hooks", "event_types": ["request.created"]}
        )
        assert endpoint.secret.startswith("whsec_")
        created = client.requests.create(
            {"message": "Proofread our brochure.", "test_scenario": "declines"}
        )
        deadline = time.monotonic() + 30
        while not receiver.received and time.monotonic() < deadline:
            time.sleep(0.1)
        client.webhook_endpoints.delete(endpoint.id)

    assert receiver.received, "no delivery within 30 s"
    delivery = receiver.received[0]
    event = verify_webhook(endpoint.secret, delivery.body, delivery.headers)
    assert event.type_ == "request.created"
    assert event.data.request_id == created.id
    assert event.livemode is False

    with pytest.raises(WebhookVerificationError):
        verify_webhook(
            endpoint.secret, delivery.body.replace(b"created", b"updated"), delivery.headers
        )
    with pytest.raises(WebhookVerificationError):
        verify_webhook("whsec_" + "A" * 32, delivery.body, delivery.headers)
