"""Generates the typed part of the Python SDK, src/handoff/_generated, from the gateway's
committed OpenAPI document with openapi-python-client (pinned in requirements-generator.txt,
in its own venv .tools/openapi-python-client-venv, which scripts/setup.sh makes).

    python3 scripts/generate.py          # rewrite src/handoff/_generated (npm run openapi runs it)
    python3 scripts/generate.py --check  # exit 1 when the committed files are stale

The document first goes through prepare_openapi.py (why: see there). Output is generated into a
temporary directory in both cases, so that the check and the rewrite see exactly the same files.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from prepare_openapi import prepare

SDK_DIR = Path(__file__).resolve().parent.parent
REPO_ROOT = SDK_DIR.parent.parent
OPENAPI_FILE = REPO_ROOT / "services" / "gateway" / "openapi.json"
CONFIG_FILE = SDK_DIR / "openapi-python-client.yaml"
TARGET = SDK_DIR / "src" / "handoff" / "_generated"
GENERATOR_BIN = REPO_ROOT / ".tools" / "openapi-python-client-venv" / "bin"


def generate(into: Path) -> Path:
    """Generates the package under ``into``; returns its directory."""
    generator = GENERATOR_BIN / "openapi-python-client"
    if not generator.exists():
        sys.exit(f"no {generator}: run `npm run setup` (scripts/setup.sh installs it)")
    document = into / "openapi.json"
    prepare(OPENAPI_FILE, document)
    output = into / "_generated"
    path = f"{GENERATOR_BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    # No .ruff_cache inside the output: it would be committed, and differ on every run.
    env = {**os.environ, "PATH": path, "RUFF_NO_CACHE": "true"}
    run = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(document),
            "--config",
            str(CONFIG_FILE),
            "--meta",
            "none",
            "--output-path",
            str(output),
            "--fail-on-warning",
        ],
        cwd=into,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        sys.exit(f"openapi-python-client failed:\n{run.stdout}\n{run.stderr}")
    return output


def differences(left: Path, right: Path) -> list[str]:
    """The files that differ between two trees, by relative path."""
    found: list[str] = []

    def walk(compared: filecmp.dircmp[str], prefix: str) -> None:
        found.extend(f"{prefix}{name}" for name in compared.left_only + compared.right_only)
        found.extend(f"{prefix}{name}" for name in compared.diff_files + compared.funny_files)
        for name, sub in compared.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(left, right, ignore=["__pycache__"]), "")
    return sorted(found)


def main(check: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="handoff-python-sdk-") as tmp:
        fresh = generate(Path(tmp))
        if check:
            stale = differences(fresh, TARGET) if TARGET.exists() else ["(missing)"]
            if stale:
                listed = "\n  ".join(stale[:20])
                sys.exit(
                    f"{TARGET.relative_to(REPO_ROOT)} is stale: run `npm run openapi` and commit.\n"
                    f"  {listed}"
                )
            return
        shutil.rmtree(TARGET, ignore_errors=True)
        shutil.copytree(fresh, TARGET)
        print(f"wrote {TARGET.relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main(check=sys.argv[1:] == ["--check"])
