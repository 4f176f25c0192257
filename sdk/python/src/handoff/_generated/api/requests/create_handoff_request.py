from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_handoff_request_body import CreateHandoffRequestBody
from ...models.create_handoff_request_response_201 import (
    CreateHandoffRequestResponse201,
)
from ...models.create_handoff_request_response_403 import (
    CreateHandoffRequestResponse403,
)
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateHandoffRequestBody,
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
        "url": "/v1/ai-to-human-request",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem | None:
    if response.status_code == 201:
        response_201 = CreateHandoffRequestResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = CreateHandoffRequestResponse403.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[
    CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateHandoffRequestBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[
    CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem
]:
    """Create a handoff request; the request token is returned only here

     An agent key with the scope(s) `requests:create`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateHandoffRequestBody): When both are given, `budget_min` must not be above
            `budget_max`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
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
    body: CreateHandoffRequestBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem | None:
    """Create a handoff request; the request token is returned only here

     An agent key with the scope(s) `requests:create`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateHandoffRequestBody): When both are given, `budget_min` must not be above
            `budget_max`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateHandoffRequestBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[
    CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem
]:
    """Create a handoff request; the request token is returned only here

     An agent key with the scope(s) `requests:create`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateHandoffRequestBody): When both are given, `budget_min` must not be above
            `budget_max`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateHandoffRequestBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem | None:
    """Create a handoff request; the request token is returned only here

     An agent key with the scope(s) `requests:create`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateHandoffRequestBody): When both are given, `budget_min` must not be above
            `budget_max`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateHandoffRequestResponse201 | CreateHandoffRequestResponse403 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
