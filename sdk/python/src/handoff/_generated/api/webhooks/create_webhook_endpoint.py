from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_webhook_endpoint_body import CreateWebhookEndpointBody
from ...models.create_webhook_endpoint_response_201 import (
    CreateWebhookEndpointResponse201,
)
from ...models.create_webhook_endpoint_response_403 import (
    CreateWebhookEndpointResponse403,
)
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateWebhookEndpointBody,
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
        "url": "/v1/webhook-endpoints",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem | None
):
    if response.status_code == 201:
        response_201 = CreateWebhookEndpointResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = CreateWebhookEndpointResponse403.from_dict(response.json())

        return response_403

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
    CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem
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
    body: CreateWebhookEndpointBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[
    CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem
]:
    """Register a webhook endpoint; its signing secret (`whsec_...`) is returned only here and on rotation

     An agent key with the scope(s) `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateWebhookEndpointBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem]
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
    body: CreateWebhookEndpointBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> (
    CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem | None
):
    """Register a webhook endpoint; its signing secret (`whsec_...`) is returned only here and on rotation

     An agent key with the scope(s) `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateWebhookEndpointBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem
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
    body: CreateWebhookEndpointBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[
    CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem
]:
    """Register a webhook endpoint; its signing secret (`whsec_...`) is returned only here and on rotation

     An agent key with the scope(s) `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateWebhookEndpointBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem]
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
    body: CreateWebhookEndpointBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> (
    CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem | None
):
    """Register a webhook endpoint; its signing secret (`whsec_...`) is returned only here and on rotation

     An agent key with the scope(s) `webhooks:manage`.

    Args:
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (CreateWebhookEndpointBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateWebhookEndpointResponse201 | CreateWebhookEndpointResponse403 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
