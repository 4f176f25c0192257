"""Prepares services/gateway/openapi.json for openapi-python-client (scripts/generate.sh).

The document narrows each error answer's problem to its status and codes
(``allOf: [Problem, {status: {const: 503}, code: {enum: [...]}}]``). openapi-python-client
0.29 cannot merge an integer with a literal and drops every such answer with a warning. The SDK's
hand-written layer turns problem answers into exceptions itself (handoff.errors), so the
generated code needs no narrowing: this step drops the ``status`` const and the ``code`` enum,
and a narrowing with nothing left (most) becomes a plain reference to ``Problem``; extension
members (``required_scopes``) stay. Nothing else changes; the descriptions still name each
answer's codes.

Used by generate.py; on its own: python prepare_openapi.py IN.json OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PROBLEM_REF = "#/components/schemas/Problem"


def _is_narrowed_problem(schema: Any) -> bool:
    if not isinstance(schema, dict) or set(schema) != {"allOf"}:
        return False
    parts = schema["allOf"]
    return (
        isinstance(parts, list)
        and len(parts) == 2
        and parts[0] == {"$ref": PROBLEM_REF}
        and isinstance(parts[1], dict)
        and "status" in parts[1].get("properties", {})
    )


def _widened(schema: dict[str, Any]) -> dict[str, Any]:
    narrowing = schema["allOf"][1]
    extensions = {
        name: value
        for name, value in narrowing.get("properties", {}).items()
        if name not in ("status", "code")
    }
    if not extensions:
        return {"$ref": PROBLEM_REF}
    return {"allOf": [{"$ref": PROBLEM_REF}, {**narrowing, "properties": extensions}]}


def _plain_problems(node: Any) -> int:
    """Widens the narrowed problems under ``node`` in place; returns how many."""
    replaced = 0
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "schema" and _is_narrowed_problem(value):
                node[key] = _widened(value)
                replaced += 1
            else:
                replaced += _plain_problems(value)
    elif isinstance(node, list):
        for item in node:
            replaced += _plain_problems(item)
    return replaced


def prepare(source: Path, target: Path) -> None:
    """Writes the prepared copy of the document ``source`` to ``target``."""
    document = json.loads(source.read_text(encoding="utf-8"))
    if _plain_problems(document) == 0:
        sys.exit(f"{source}: no narrowed problem answer found; is this step still needed?")
    target.write_text(json.dumps(document), encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    prepare(Path(sys.argv[1]), Path(sys.argv[2]))
