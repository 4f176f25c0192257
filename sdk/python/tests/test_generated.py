"""The generated part of the SDK matches the committed OpenAPI document, as the TypeScript SDK's
packages/sdk/test/generated.test.ts checks its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SDK_DIR = Path(__file__).resolve().parent.parent


def test_the_generated_client_is_up_to_date_run_npm_run_openapi_when_not() -> None:
    check = subprocess.run(
        [sys.executable, str(SDK_DIR / "scripts" / "generate.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr + check.stdout
