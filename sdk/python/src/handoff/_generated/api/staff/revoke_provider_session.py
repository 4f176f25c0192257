from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.revoke_provider_session_response_200 import (
    RevokeProviderSessionResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    session_id: str,
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
        "url": "/v1/staff/provider-sessions/{session_id}/revoke".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RevokeProviderSessionResponse200 | None:
    if response.status_code == 200:
        response_200 = RevokeProviderSessionResponse200.from_dict(response.json())

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
) -> Response[Problem | RevokeProviderSessionResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Problem | RevokeProviderSessionResponse200]:
    """End a provider’s workspace session; every gateway refuses it at once

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RevokeProviderSessionResponse200]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Problem | RevokeProviderSessionResponse200 | None:
    """End a provider’s workspace session; every gateway refuses it at once

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RevokeProviderSessionResponse200
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        idempotency_key=idempotency_key,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Problem | RevokeProviderSessionResponse200]:
    """End a provider’s workspace session; every gateway refuses it at once

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RevokeProviderSessionResponse200]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Problem | RevokeProviderSessionResponse200 | None:
    """End a provider’s workspace session; every gateway refuses it at once

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        session_id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RevokeProviderSessionResponse200
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
