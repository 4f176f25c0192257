"""The client's settings and bodies as a Python caller writes them: the key and URL from
HANDOFF_API_KEY and HANDOFF_URL (the harness sets both), and a body as keywords."""

from __future__ import annotations

import pytest

from handoff import AsyncHandoff, Handoff


def test_the_key_and_url_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, base_url: str, test_key: str
) -> None:
    monkeypatch.setenv("HANDOFF_URL", base_url)
    monkeypatch.setenv("HANDOFF_API_KEY", test_key)
    with Handoff() as client:
        assert client.livemode is False
        created = client.requests.create(message="Fix the tap.", test_scenario="declines")
        assert created.id.startswith("req_")
        assert client.requests.get(created.id).message == "Fix the tap."


def test_no_key_anywhere_is_refused_before_any_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HANDOFF_API_KEY", raising=False)
    with pytest.raises(ValueError, match="HANDOFF_API_KEY"):
        Handoff()


def test_a_body_is_given_once(base_url: str, test_key: str) -> None:
    with Handoff(test_key, base_url=base_url) as client:
        with pytest.raises(TypeError, match="not both"):
            client.requests.create({"message": "One."}, message="Two.")
        with pytest.raises(TypeError, match="a body is needed"):
            client.requests.create()


@pytest.mark.anyio
async def test_the_async_client_takes_keywords_too(base_url: str, test_key: str) -> None:
    async with AsyncHandoff(test_key, base_url=base_url) as client:
        created = await client.requests.create(
            message="Paint the fence.", budget_max=60, test_scenario="declines"
        )
        assert (await client.requests.get(created.id)).livemode is False
