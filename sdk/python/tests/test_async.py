"""``AsyncHandoff``: the provider asks a question (``asks_question``), the agent answers, and
the engagement runs to its end, followed with ``async for`` over ``updates()``."""

from __future__ import annotations

import pytest
from support import label

from handoff import AsyncHandoff, HandoffError

pytestmark = pytest.mark.anyio


async def test_an_answered_question_leads_to_a_completed_request(
    base_url: str, test_key: str
) -> None:
    async with AsyncHandoff(test_key, base_url=base_url) as client:
        created = await client.requests.create(
            {
                "message": "Repaint the shop sign.",
                "budget_max": 80,
                "test_scenario": "asks_question",
            }
        )
        seen: list[str] = []
        async for event in client.requests.updates(created.id, timeout=90):
            obj = event.data.object_
            seen.append(label(event.type_, obj.additional_properties.get("status")))
            if event.type_ == "message.created" and obj["author_role"] == "provider":
                assert "which day" in obj["message"]
                await client.requests.send_message(created.id, "Any weekday morning works.")
            elif event.type_ == "proposal.received":
                await client.proposals.accept(created.id, obj["id"])
            elif event.type_ == "milestone.submitted":
                await client.milestones.approve(created.id, obj["id"])
            elif event.type_ == "request.updated" and obj["status"] == "completed":
                break
        assert seen[:6] == [
            "request.created:submitted",
            "request.updated:routed",
            "request.updated:routed",
            "message.created",
            "message.created",
            "proposal.received:submitted",
        ]
        assert seen[-1] == "request.updated:completed"

        messages = [m async for m in client.requests.messages(created.id)]
        assert [m.author_role for m in messages][-2:] == ["agent", "provider"]
        assert (await client.requests.get(created.id)).status == "completed"
        with pytest.raises(HandoffError) as problem:
            await client.proposals.get(created.id, "prp_unknown")
        assert problem.value.status == 404
