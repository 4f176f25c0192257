"""The Handoff API's problem answers (RFC 9457) as exceptions."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any


@dataclass(frozen=True)
class FieldError:
    """One problem with one field of the call (``errors[]`` of a 422), as a JSON pointer."""

    pointer: str
    code: str
    detail: str


class HandoffError(Exception):
    """A problem answer of the Handoff API. Branch on ``code`` (stable, snake_case); ``status``
    is the HTTP status and ``errors`` lists each bad field of a 422; ``body`` holds extension
    members such as ``required_scopes``."""

    def __init__(
        self, status: int, body: Mapping[str, Any], retry_after_seconds: int | None = None
    ) -> None:
        def text(key: str) -> str | None:
            value = body.get(key)
            return value if isinstance(value, str) else None

        self.status = status
        self.code = text("code") or f"http_{status}"
        self.title = text("title") or ""
        self.detail = text("detail") or f"The API answered {status}."
        self.request_id = text("request_id")
        raw_errors = body.get("errors")
        self.errors: list[FieldError] = [
            FieldError(str(e.get("pointer", "")), str(e.get("code", "")), str(e.get("detail", "")))
            for e in (raw_errors if isinstance(raw_errors, list) else [])
            if isinstance(e, dict)
        ]
        self.retry_after_seconds = retry_after_seconds
        self.body: Mapping[str, Any] = body
        super().__init__(f"{status} {self.code}: {self.detail}")


class HandoffConnectionError(Exception):
    """The API could not be reached (connection refused or reset, a timeout) after every retry."""


def parse_retry_after(value: str | None, now: float | None = None) -> int | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP date."""
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0, int(when - (time.time() if now is None else now) + 0.999))


def problem_body(content: bytes) -> dict[str, Any] | None:
    """The JSON object of an answer's body, or None when it is not one."""
    try:
        parsed = json.loads(content)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def problem_of(status: int, content: bytes, headers: Mapping[str, str]) -> HandoffError:
    """The problem of a failed answer, whatever its body turned out to be."""
    body = problem_body(content)
    if body is None:
        text = content.decode("utf-8", "replace").strip()
        body = {"detail": text} if text else {}
    return HandoffError(status, body, parse_retry_after(headers.get("retry-after")))
