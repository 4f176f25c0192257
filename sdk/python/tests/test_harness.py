"""The harness's values reach the tests and name a working stack."""

from __future__ import annotations

import httpx


def test_the_agent_key_and_the_test_key_belong_to_the_integration(
    base_url: str, api_key: str, test_key: str, integration_id: str
) -> None:
    live = httpx.get(f"{base_url}/v1/me", headers={"Authorization": f"Bearer {api_key}"})
    test = httpx.get(f"{base_url}/v1/me", headers={"Authorization": f"Bearer {test_key}"})
    assert live.status_code == 200, live.text
    assert test.status_code == 200, test.text
    assert live.json()["integration_id"] == integration_id
    assert test.json()["livemode"] is False
