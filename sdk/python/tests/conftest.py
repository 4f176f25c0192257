"""What the harness (scripts/test.ts) hands the tests: the local stack's URL, an agent key with
every scope, the same integration's test key, a staff token and the integration's id.

Run through the harness, never bare: ``node scripts/test.ts [pytest args]`` from sdk/python.
"""

from __future__ import annotations

import os

import pytest

_HARNESS_VARIABLES = {
    "base_url": "HANDOFF_URL",
    "api_key": "HANDOFF_API_KEY",
    "test_key": "HANDOFF_TEST_KEY",
    "staff_token": "HANDOFF_STAFF_TOKEN",
    "integration_id": "HANDOFF_INTEGRATION_ID",
}


def _harness_value(variable: str) -> str:
    value = os.environ.get(variable, "")
    if not value:
        pytest.fail(
            f"{variable} is not set: run the Python tests through the harness, which starts the "
            "local stack: `cd sdk/python && node scripts/test.ts [pytest args]`",
            pytrace=False,
        )
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    """The gateway's base URL, e.g. ``http://127.0.0.1:41234``."""
    return _harness_value(_HARNESS_VARIABLES["base_url"]).rstrip("/")


@pytest.fixture(scope="session")
def api_key() -> str:
    """A live agent key (``hk_live_…``) holding every agent scope."""
    return _harness_value(_HARNESS_VARIABLES["api_key"])


@pytest.fixture(scope="session")
def test_key() -> str:
    """The same integration's test key (``hk_test_…``): the simulated provider answers."""
    return _harness_value(_HARNESS_VARIABLES["test_key"])


@pytest.fixture(scope="session")
def staff_token() -> str:
    """A staff JWT the gateway accepts (``Authorization: Bearer``)."""
    return _harness_value(_HARNESS_VARIABLES["staff_token"])


@pytest.fixture(scope="session")
def integration_id() -> str:
    """The integration both keys belong to."""
    return _harness_value(_HARNESS_VARIABLES["integration_id"])


@pytest.fixture
def anyio_backend() -> str:
    """Async tests (``@pytest.mark.anyio``) run on asyncio, which the SDKs under test use."""
    return "asyncio"
