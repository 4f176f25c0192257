"""``requests.cancel``: the agent takes its request back while no provider is engaged, in both
clients; once a proposal was accepted the API refuses (409 ``invalid_state_transition``)."""

from __future__ import annotations

import pytest

from handoff import AsyncHandoff, Handoff, HandoffError


def test_a_submitted_request_is_cancelled_once(base_url: str, api_key: str) -> None:
    with Handoff(api_key, base_url=base_url) as client:
        created = client.requests.create({"message": "Find me a plumber for Friday."})
        cancelled = client.requests.cancel(created.id, "Fixed it myself.")
        assert (cancelled.id, cancelled.status) == (created.id, "cancelled")
        assert cancelled.conversation == []
        assert client.requests.get(created.id).status == "cancelled"
        with pytest.raises(HandoffError) as problem:
            client.requests.cancel(created.id)
        assert (problem.value.status, problem.value.code) == (409, "invalid_state_transition")
        assert problem.value.body["current_state"] == "cancelled"


def test_an_engaged_request_cannot_be_cancelled(base_url: str, test_key: str) -> None:
    with Handoff(test_key, base_url=base_url) as client:
        created = client.requests.create(
            {"message": "Repaint the shop sign.", "budget_max": 80, "test_scenario": "happy_path"}
        )
        for event in client.requests.updates(created.id, timeout=60):
            if event.type_ == "proposal.received":
                client.proposals.accept(created.id, event.data.object_["id"])
                break
        with pytest.raises(HandoffError) as problem:
            client.requests.cancel(created.id, "Too slow.")
        assert (problem.value.status, problem.value.code) == (409, "invalid_state_transition")
        assert problem.value.body["current_state"] == "in_progress"
        assert problem.value.body["allowed_actions"] == []
        assert client.requests.get(created.id).status == "in_progress"


@pytest.mark.anyio
async def test_the_async_client_cancels_too(base_url: str, test_key: str) -> None:
    async with AsyncHandoff(test_key, base_url=base_url) as client:
        created = await client.requests.create(
            {"message": "Translate our menu.", "test_scenario": "asks_question"}
        )
        cancelled = await client.requests.cancel(created.id)
        assert cancelled.status == "cancelled"
        assert (await client.requests.get(created.id)).status == "cancelled"
