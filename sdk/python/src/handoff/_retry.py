"""The transport under both clients: an ``Idempotency-Key`` on every POST (kept across its
retries, so that a retry of a call that was answered is a replay, not a second run), and retries
of connection errors, 429 (after ``Retry-After``), 5xx and a busy idempotency key, with
exponential backoff and full jitter. The gateway keeps no 5xx answer: a retry after a 503 runs
the call again (see the README's notes on Idempotency-Key)."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass

import httpx

from .errors import HandoffConnectionError, parse_retry_after, problem_body


@dataclass(frozen=True)
class RetryPolicy:
    """``max_retries`` further attempts after the first (0 turns retries off); the first
    backoff's ceiling is ``base_delay`` seconds, doubling each time; no wait, not even one a
    ``Retry-After`` asks for, is longer than ``max_delay``."""

    max_retries: int = 3
    base_delay: float = 0.25
    max_delay: float = 30.0

    def backoff(self, attempt: int) -> float:
        # Full jitter: many clients failing together do not retry together.
        return random.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))

    def wait_after(self, response: httpx.Response, attempt: int) -> float:
        asked = parse_retry_after(response.headers.get("retry-after"))
        return self.backoff(attempt) if asked is None else min(float(asked), self.max_delay)


def with_idempotency_key(request: httpx.Request) -> None:
    if request.method == "POST" and "idempotency-key" not in request.headers:
        request.headers["Idempotency-Key"] = str(uuid.uuid4())


def _key_in_use(response: httpx.Response) -> bool:
    # An earlier attempt of this very call is still running (its answer was lost on the way
    # back): waiting and retrying with the same key gets its result.
    if response.status_code != 409:
        return False
    body = problem_body(response.content)
    return body is not None and body.get("code") == "idempotency_key_in_use"


def is_retryable(response: httpx.Response) -> bool:
    """Whether the status alone is worth another attempt (429, 5xx)."""
    return response.status_code == 429 or response.status_code >= 500


def _connection_error(request: httpx.Request, error: Exception) -> HandoffConnectionError:
    return HandoffConnectionError(f"{request.method} {request.url.path}: {error!r}")


class RetryingTransport(httpx.BaseTransport):
    """The synchronous client's transport."""

    def __init__(self, policy: RetryPolicy, inner: httpx.BaseTransport | None = None) -> None:
        self._policy = policy
        self._inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        with_idempotency_key(request)
        attempt = 0
        while True:
            last = attempt >= self._policy.max_retries
            try:
                response = self._inner.handle_request(request)
            except httpx.TransportError as error:
                if last:
                    raise _connection_error(request, error) from error
                time.sleep(self._policy.backoff(attempt))
                attempt += 1
                continue
            if response.status_code == 409:
                response.read()
            if last or not (is_retryable(response) or _key_in_use(response)):
                return response
            response.close()
            time.sleep(self._policy.wait_after(response, attempt))
            attempt += 1

    def close(self) -> None:
        self._inner.close()


class AsyncRetryingTransport(httpx.AsyncBaseTransport):
    """The asynchronous client's transport."""

    def __init__(self, policy: RetryPolicy, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self._policy = policy
        self._inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        with_idempotency_key(request)
        attempt = 0
        while True:
            last = attempt >= self._policy.max_retries
            try:
                response = await self._inner.handle_async_request(request)
            except httpx.TransportError as error:
                if last:
                    raise _connection_error(request, error) from error
                await asyncio.sleep(self._policy.backoff(attempt))
                attempt += 1
                continue
            if response.status_code == 409:
                await response.aread()
            if last or not (is_retryable(response) or _key_in_use(response)):
                return response
            await response.aclose()
            await asyncio.sleep(self._policy.wait_after(response, attempt))
            attempt += 1

    async def aclose(self) -> None:
        await self._inner.aclose()
