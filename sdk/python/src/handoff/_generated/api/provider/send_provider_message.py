from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.send_provider_message_body import SendProviderMessageBody
from ...models.send_provider_message_response_201 import SendProviderMessageResponse201
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: SendProviderMessageBody,
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
        "url": "/v1/provider/requests/{id}/messages".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SendProviderMessageResponse201 | None:
    if response.status_code == 201:
        response_201 = SendProviderMessageResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[Problem | SendProviderMessageResponse201]:
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
    body: SendProviderMessageBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Problem | SendProviderMessageResponse201]:
    """Write into the request's conversation as the provider

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (SendProviderMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SendProviderMessageResponse201]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
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
    body: SendProviderMessageBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Problem | SendProviderMessageResponse201 | None:
    """Write into the request's conversation as the provider

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (SendProviderMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SendProviderMessageResponse201
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: SendProviderMessageBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Problem | SendProviderMessageResponse201]:
    """Write into the request's conversation as the provider

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (SendProviderMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SendProviderMessageResponse201]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: SendProviderMessageBody,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Problem | SendProviderMessageResponse201 | None:
    """Write into the request's conversation as the provider

     A provider, with a provider key (`hpk_live_...`) of an active provider, or signed in to the
    workspace (its session cookie, and `X-CSRF-Token` on a change); it sees only its own resources.

    Args:
        id (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (SendProviderMessageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SendProviderMessageResponse201
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
