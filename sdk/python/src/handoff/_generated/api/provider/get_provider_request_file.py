from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_provider_request_file_response_200 import (
    GetProviderRequestFileResponse200,
)
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    file_id: str,
    *,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/provider/requests/{id}/files/{file_id}".format(
            id=quote(str(id), safe=""),
            file_id=quote(str(file_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GetProviderRequestFileResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = GetProviderRequestFileResponse200.from_dict(response.json())

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
) -> Response[GetProviderRequestFileResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    file_id: str,
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> Response[GetProviderRequestFileResponse200 | Problem]:
    """One file of the request the provider may see, with a fresh download URL

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        file_id (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetProviderRequestFileResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        file_id=file_id,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    file_id: str,
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> GetProviderRequestFileResponse200 | Problem | None:
    """One file of the request the provider may see, with a fresh download URL

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        file_id (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetProviderRequestFileResponse200 | Problem
    """

    return sync_detailed(
        id=id,
        file_id=file_id,
        client=client,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    file_id: str,
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> Response[GetProviderRequestFileResponse200 | Problem]:
    """One file of the request the provider may see, with a fresh download URL

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        file_id (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetProviderRequestFileResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        file_id=file_id,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    file_id: str,
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> GetProviderRequestFileResponse200 | Problem | None:
    """One file of the request the provider may see, with a fresh download URL

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        file_id (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetProviderRequestFileResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            file_id=file_id,
            client=client,
            request_id=request_id,
        )
    ).parsed
