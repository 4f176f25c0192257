from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.wait_for_provider_request_updates_response_200 import (
    WaitForProviderRequestUpdatesResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    after: int | Unset = 0,
    wait: int | Unset = 0,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    params: dict[str, Any] = {}

    params["after"] = after

    params["wait"] = wait

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/provider/requests/{id}/events".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | WaitForProviderRequestUpdatesResponse200 | None:
    if response.status_code == 200:
        response_200 = WaitForProviderRequestUpdatesResponse200.from_dict(
            response.json()
        )

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())

        return response_405

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | WaitForProviderRequestUpdatesResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: int | Unset = 0,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> Response[Problem | WaitForProviderRequestUpdatesResponse200]:
    """Long-poll for what changed on a request the provider may see, after a `sequence`: the conversation’s
    messages whole, each with `mine` (true when this provider wrote it), and of its own proposals and
    work, the request and (when engaged) its payments only `object`, `id` and `status`, to read again.
    Answers at once when there are some, else waits up to `wait` seconds (at most 25).

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        after (int | Unset): Answer only events whose `sequence` is higher (0: from the first
            event). Default: 0.
        wait (int | Unset): Seconds to wait for a newer event when there is none yet, at most 25
            (0: answer at once). Default: 0.
        limit (int | Unset): Most events in one answer; `has_more` says when more are waiting.
            Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WaitForProviderRequestUpdatesResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        wait=wait,
        limit=limit,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: int | Unset = 0,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> Problem | WaitForProviderRequestUpdatesResponse200 | None:
    """Long-poll for what changed on a request the provider may see, after a `sequence`: the conversation’s
    messages whole, each with `mine` (true when this provider wrote it), and of its own proposals and
    work, the request and (when engaged) its payments only `object`, `id` and `status`, to read again.
    Answers at once when there are some, else waits up to `wait` seconds (at most 25).

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        after (int | Unset): Answer only events whose `sequence` is higher (0: from the first
            event). Default: 0.
        wait (int | Unset): Seconds to wait for a newer event when there is none yet, at most 25
            (0: answer at once). Default: 0.
        limit (int | Unset): Most events in one answer; `has_more` says when more are waiting.
            Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WaitForProviderRequestUpdatesResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
        after=after,
        wait=wait,
        limit=limit,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: int | Unset = 0,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> Response[Problem | WaitForProviderRequestUpdatesResponse200]:
    """Long-poll for what changed on a request the provider may see, after a `sequence`: the conversation’s
    messages whole, each with `mine` (true when this provider wrote it), and of its own proposals and
    work, the request and (when engaged) its payments only `object`, `id` and `status`, to read again.
    Answers at once when there are some, else waits up to `wait` seconds (at most 25).

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        after (int | Unset): Answer only events whose `sequence` is higher (0: from the first
            event). Default: 0.
        wait (int | Unset): Seconds to wait for a newer event when there is none yet, at most 25
            (0: answer at once). Default: 0.
        limit (int | Unset): Most events in one answer; `has_more` says when more are waiting.
            Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WaitForProviderRequestUpdatesResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        wait=wait,
        limit=limit,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = 0,
    wait: int | Unset = 0,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> Problem | WaitForProviderRequestUpdatesResponse200 | None:
    """Long-poll for what changed on a request the provider may see, after a `sequence`: the conversation’s
    messages whole, each with `mine` (true when this provider wrote it), and of its own proposals and
    work, the request and (when engaged) its payments only `object`, `id` and `status`, to read again.
    Answers at once when there are some, else waits up to `wait` seconds (at most 25).

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        after (int | Unset): Answer only events whose `sequence` is higher (0: from the first
            event). Default: 0.
        wait (int | Unset): Seconds to wait for a newer event when there is none yet, at most 25
            (0: answer at once). Default: 0.
        limit (int | Unset): Most events in one answer; `has_more` says when more are waiting.
            Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WaitForProviderRequestUpdatesResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            after=after,
            wait=wait,
            limit=limit,
            request_id=request_id,
        )
    ).parsed
