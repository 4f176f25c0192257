"""What the synchronous and the asynchronous client share: the httpx settings, request tokens,
bodies from plain dicts, answers to models or exceptions, and paging."""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import httpx

from . import __version__
from ._generated.types import UNSET, Response, Unset
from .errors import problem_of

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
# Long enough for the long poll (`wait` up to 25 s) with room for a slow answer.
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
PAGE_SIZE = 100

T = TypeVar("T")
Item_co = TypeVar("Item_co", bound="_HasId", covariant=True)


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


class Page(Protocol[Item_co]):
    """One page of a list: ``{object: 'list', data, has_more}``, newest first."""

    @property
    def data(self) -> Sequence[Item_co]: ...

    @property
    def has_more(self) -> bool: ...


class _FromDict(Protocol[T]):
    def from_dict(self, src_dict: Mapping[str, Any]) -> T: ...


def headers(api_key: str, user_agent: str | None) -> dict[str, str]:
    agent = f"handoff-sdk-python/{__version__}" + (f" {user_agent}" if user_agent else "")
    return {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": agent}


def body(kind: _FromDict[T], value: T | Mapping[str, Any]) -> T:
    """A generated body model from itself or from a plain dict of the same JSON."""
    return kind.from_dict(value) if isinstance(value, Mapping) else value


def body_of(given_body: T | None, fields: Mapping[str, Any]) -> T | Mapping[str, Any]:
    """The body given whole, or made of keyword fields (not both)."""
    if given_body is not None and fields:
        raise TypeError("give the body as one argument or as keywords, not both")
    if given_body is not None:
        return given_body
    if not fields:
        raise TypeError("a body is needed: a model, a dict or keywords")
    return fields


def settings(api_key: str | None, base_url: str | None) -> tuple[str, str]:
    """The key and base URL given, else HANDOFF_API_KEY and HANDOFF_URL, else the local default."""
    key = api_key or os.environ.get("HANDOFF_API_KEY")
    if not key:
        raise ValueError("an agent key is needed: Handoff(api_key=...) or HANDOFF_API_KEY")
    base = base_url or os.environ.get("HANDOFF_URL") or DEFAULT_BASE_URL
    return key, base.rstrip("/")


def given(value: T | None) -> T | Unset:
    return UNSET if value is None else value


def raise_problem(response: httpx.Response) -> None:
    """The clients' response hook (the body already read): a failed answer becomes a
    ``HandoffError`` here, before the generated code would parse it, so that a body that is no
    problem (a proxy's page) is reported rather than failing to parse."""
    if response.status_code >= 400:
        raise problem_of(response.status_code, response.content, response.headers)


def ok(response: Response[Any], kind: type[T]) -> T:
    """The answer's model (``raise_problem`` has raised the failures already)."""
    if not isinstance(response.parsed, kind):
        raise problem_of(int(response.status_code), response.content, response.headers)
    return response.parsed


class Deadline:
    """An optional end for an endless iterator such as ``updates()``."""

    def __init__(self, seconds: float | None) -> None:
        self._seconds = seconds
        self._end = None if seconds is None else time.monotonic() + seconds

    def poll_seconds(self, wait: int) -> int:
        """How long the next long poll may wait; raises ``TimeoutError`` when time is up."""
        if self._end is None:
            return wait
        left = self._end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no end within {self._seconds} s")
        return max(0, min(wait, int(left)))


class Tokens:
    """Request tokens by request id: ``requests.create`` keeps the one it got,
    ``requests.use_token`` adds one from elsewhere, and each call takes ``token=`` to override."""

    def __init__(self) -> None:
        self._tokens: dict[str, str] = {}

    def remember(self, request_id: str, token: str) -> None:
        self._tokens[request_id] = token

    def for_request(self, request_id: str, token: str | None) -> str:
        found = token or self._tokens.get(request_id)
        if found is None:
            raise ValueError(
                f"No request token for {request_id}: pass token=... or call "
                "requests.use_token(id, token) first."
            )
        return found


def pages(fetch: Callable[[str | Unset], Page[Item_co]]) -> Iterator[Item_co]:
    """Every item of a list, page after page (``starting_after`` = the last id seen), fetching
    the next page only when the caller has consumed the previous one."""
    cursor: str | Unset = UNSET
    while True:
        page = fetch(cursor)
        yield from page.data
        if not page.has_more or not page.data:
            return
        cursor = page.data[-1].id


async def async_pages(
    fetch: Callable[[str | Unset], Awaitable[Page[Item_co]]],
) -> AsyncIterator[Item_co]:
    """``pages`` for the asynchronous client."""
    cursor: str | Unset = UNSET
    while True:
        page = await fetch(cursor)
        for item in page.data:
            yield item
        if not page.has_more or not page.data:
            return
        cursor = page.data[-1].id
