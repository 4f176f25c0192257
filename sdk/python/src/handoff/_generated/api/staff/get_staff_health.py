from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_staff_health_response_200 import GetStaffHealthResponse200
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/staff/health",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GetStaffHealthResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = GetStaffHealthResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())

        return response_405

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
) -> Response[GetStaffHealthResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> Response[GetStaffHealthResponse200 | Problem]:
    """Every backend service as this gateway sees it (status, instance, version, latency, error), and the
    long-polls this gateway process holds

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetStaffHealthResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> GetStaffHealthResponse200 | Problem | None:
    """Every backend service as this gateway sees it (status, instance, version, latency, error), and the
    long-polls this gateway process holds

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetStaffHealthResponse200 | Problem
    """

    return sync_detailed(
        client=client,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> Response[GetStaffHealthResponse200 | Problem]:
    """Every backend service as this gateway sees it (status, instance, version, latency, error), and the
    long-polls this gateway process holds

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GetStaffHealthResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    request_id: str | Unset = UNSET,
) -> GetStaffHealthResponse200 | Problem | None:
    """Every backend service as this gateway sees it (status, instance, version, latency, error), and the
    long-polls this gateway process holds

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GetStaffHealthResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            request_id=request_id,
        )
    ).parsed
