"""Retries and idempotency keys: the transport against a scripted loopback server (for the
failures a healthy gateway does not give on demand), and replays against the real gateway."""

from __future__ import annotations

import json
import time

import pytest
from support import Answer, Received, loopback_server

from handoff import Handoff, HandoffConnectionError, HandoffError, RetryPolicy

FAST = RetryPolicy(max_retries=3, base_delay=0.01, max_delay=2.0)
CREATED = json.dumps(
    {
        "object": "request",
        "id": "req_scripted",
        "request_token": "hrt_scripted",
    }
).encode()


def test_a_post_keeps_its_idempotency_key_across_retries_of_5xx_and_429() -> None:
    script = [
        Answer(503, b'{"code":"service_unavailable","status":503}'),
        Answer(429, b'{"code":"rate_limited","status":429}', {"retry-after": "1"}),
        Answer(422, b'{"code":"validation_failed","status":422,"detail":"no"}'),
    ]
    with loopback_server(lambda _call: script.pop(0)) as server:
        client = Handoff("hk_test_x", base_url=server.url, retry=FAST)
        started = time.monotonic()
        with pytest.raises(HandoffError) as problem:
            client.requests.create({"message": "Paint the fence."})
        waited = time.monotonic() - started
    assert problem.value.code == "validation_failed"
    keys = [call.headers.get("idempotency-key") for call in server.received]
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1
    # The 429 asked for one second, and the client waited it (within max_delay).
    assert waited >= 1.0
    assert all(call.headers["authorization"] == "Bearer hk_test_x" for call in server.received)


def test_a_busy_idempotency_key_is_waited_for_and_a_given_key_is_sent_as_is() -> None:
    answers = iter(
        [
            Answer(409, b'{"code":"idempotency_key_in_use","status":409}'),
            Answer(409, b'{"code":"idempotency_key_in_use","status":409}'),
            Answer(400, b'{"code":"invalid_json","status":400}'),
        ]
    )

    def answer(_call: Received) -> Answer:
        return next(answers)

    with loopback_server(answer) as server:
        client = Handoff("hk_test_x", base_url=server.url, retry=FAST)
        with pytest.raises(HandoffError) as problem:
            client.requests.create({"message": "Paint the fence."}, idempotency_key="mine-1")
    assert problem.value.status == 400
    assert [call.headers["idempotency-key"] for call in server.received] == ["mine-1"] * 3


def test_retries_stop_after_max_retries_and_gets_carry_no_key() -> None:
    with loopback_server(lambda _call: Answer(500, b'{"code":"internal_error"}')) as server:
        client = Handoff("hk_test_x", base_url=server.url, retry=FAST)
        with pytest.raises(HandoffError) as problem:
            client.me()
    assert problem.value.status == 500
    assert len(server.received) == 1 + FAST.max_retries
    assert all("idempotency-key" not in call.headers for call in server.received)


def test_an_unreachable_gateway_is_a_connection_error_after_the_retries() -> None:
    with loopback_server(lambda _call: Answer(200)) as server:
        url = server.url
    client = Handoff("hk_test_x", base_url=url, retry=FAST)
    with pytest.raises(HandoffConnectionError):
        client.me()


def test_the_gateway_replays_a_create_sent_again_with_the_same_key(
    base_url: str, test_key: str
) -> None:
    with Handoff(test_key, base_url=base_url) as client:
        body = {"message": "Translate our menu into French.", "test_scenario": "declines"}
        first = client.requests.create(body, idempotency_key="sdk-python-replay-1")
        again = client.requests.create(body, idempotency_key="sdk-python-replay-1")
        assert again.id == first.id
        assert again.request_token == first.request_token
        other = client.requests.create(body)
        assert other.id != first.id
        with pytest.raises(HandoffError) as reused:
            client.requests.create(
                {**body, "message": "Something else."}, idempotency_key="sdk-python-replay-1"
            )
        assert (reused.value.status, reused.value.code) == (422, "idempotency_key_reused")
