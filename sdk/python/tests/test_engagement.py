"""A whole engagement with the test key (docs/test-mode.md), followed with ``updates()``, and
the synchronous client's reads, lists and problems against the real stack."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support import HAPPY_PATH, label

from handoff import Handoff, HandoffError, _core


@pytest.fixture
def client(base_url: str, test_key: str) -> Iterator[Handoff]:
    with Handoff(test_key, base_url=base_url) as client:
        yield client


def test_happy_path_from_the_handoff_to_a_completed_request(client: Handoff) -> None:
    created = client.requests.create(
        {
            "message": "Build a landing page for our bakery, with an order form.",
            "budget_max": 150,
            "test_scenario": "happy_path",
        }
    )
    assert created.livemode is False
    assert created.test_scenario == "happy_path"

    seen: list[str] = []
    for event in client.requests.updates(created.id, timeout=90):
        obj = event.data.object_
        seen.append(label(event.type_, obj.additional_properties.get("status")))
        if event.type_ == "proposal.received":
            accepted = client.proposals.accept(created.id, obj["id"])
            assert accepted.proposal.status == "accepted"
        elif event.type_ == "milestone.submitted":
            approved = client.milestones.approve(created.id, obj["id"])
            assert approved.status == "approved"
        elif event.type_ == "request.updated" and obj["status"] == "completed":
            break
    assert seen == HAPPY_PATH

    request = client.requests.get(created.id)
    assert request.status == "completed"
    payments = list(client.requests.payments(created.id))
    assert [(p.status, p.amount) for p in payments] == [("completed", 150)]
    proposals = list(client.proposals.list(created.id))
    assert [p.status for p in proposals] == ["accepted"]
    milestones = list(client.milestones.list(created.id))
    assert [m.status for m in milestones] == ["approved"]
    assert len(list(client.deliverables.list(created.id))) == 1
    assert [j.status for j in client.jobs.list(created.id)] == ["completed"]


def test_lists_page_through_every_item(client: Handoff, monkeypatch: pytest.MonkeyPatch) -> None:
    made = {client.test_clocks.create({"name": f"paging {n}"}).id for n in range(3)}
    # Two a page, so that three clocks take two pages and the iterator follows the cursor.
    monkeypatch.setattr(_core, "PAGE_SIZE", 2)
    listed = [clock.id for clock in client.test_clocks.list()]
    assert made <= set(listed)
    assert len(listed) == len(set(listed))
    for clock_id in made:
        client.test_clocks.delete(clock_id)
    assert made.isdisjoint(clock.id for clock in client.test_clocks.list())


def test_problems_are_typed_exceptions(client: Handoff) -> None:
    with pytest.raises(HandoffError) as invalid:
        client.requests.create({"message": "", "budget_min": -1})
    assert invalid.value.status == 422
    assert invalid.value.code == "validation_failed"
    assert {e.pointer for e in invalid.value.errors} >= {"/message", "/budget_min"}
    assert invalid.value.request_id

    with pytest.raises(HandoffError) as unknown:
        client.requests.get("req_unknown", token="hrt_nope")
    assert (unknown.value.status, unknown.value.code) == (404, "request_not_found")

    with pytest.raises(ValueError, match="No request token"):
        client.requests.get("req_never_seen")
