from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.sign_out_response_200 import SignOutResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/workspace/session/end",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SignOutResponse200 | None:
    if response.status_code == 200:
        response_200 = SignOutResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())

        return response_405

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | SignOutResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Problem | SignOutResponse200]:
    """Sign out: the session ends on every gateway at once and its cookie is cleared

     A provider signed in to the workspace: its session cookie (and `X-CSRF-Token` on a change).

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SignOutResponse200]
    """

    kwargs = _get_kwargs(
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Problem | SignOutResponse200 | None:
    """Sign out: the session ends on every gateway at once and its cookie is cleared

     A provider signed in to the workspace: its session cookie (and `X-CSRF-Token` on a change).

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SignOutResponse200
    """

    return sync_detailed(
        client=client,
        idempotency_key=idempotency_key,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Problem | SignOutResponse200]:
    """Sign out: the session ends on every gateway at once and its cookie is cleared

     A provider signed in to the workspace: its session cookie (and `X-CSRF-Token` on a change).

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SignOutResponse200]
    """

    kwargs = _get_kwargs(
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Problem | SignOutResponse200 | None:
    """Sign out: the session ends on every gateway at once and its cookie is cleared

     A provider signed in to the workspace: its session cookie (and `X-CSRF-Token` on a change).

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SignOutResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
