from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_dispute_body import OpenDisputeBody
from ...models.open_dispute_response_201 import OpenDisputeResponse201
from ...models.open_dispute_response_403 import OpenDisputeResponse403
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: OpenDisputeBody,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Service-Request-Token"] = x_service_request_token

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/request/{id}/disputes".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OpenDisputeResponse201 | OpenDisputeResponse403 | Problem | None:
    if response.status_code == 201:
        response_201 = OpenDisputeResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = OpenDisputeResponse403.from_dict(response.json())

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
) -> Response[OpenDisputeResponse201 | OpenDisputeResponse403 | Problem]:
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
    body: OpenDisputeBody,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[OpenDisputeResponse201 | OpenDisputeResponse403 | Problem]:
    """Open a dispute or refund case for the customer on the request's job (optionally one milestone)

     An agent key with the scope(s) `disputes:manage`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (OpenDisputeBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenDisputeResponse201 | OpenDisputeResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_service_request_token=x_service_request_token,
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
    body: OpenDisputeBody,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> OpenDisputeResponse201 | OpenDisputeResponse403 | Problem | None:
    """Open a dispute or refund case for the customer on the request's job (optionally one milestone)

     An agent key with the scope(s) `disputes:manage`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (OpenDisputeBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenDisputeResponse201 | OpenDisputeResponse403 | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        x_service_request_token=x_service_request_token,
        idempotency_key=idempotency_key,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: OpenDisputeBody,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[OpenDisputeResponse201 | OpenDisputeResponse403 | Problem]:
    """Open a dispute or refund case for the customer on the request's job (optionally one milestone)

     An agent key with the scope(s) `disputes:manage`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (OpenDisputeBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenDisputeResponse201 | OpenDisputeResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_service_request_token=x_service_request_token,
        idempotency_key=idempotency_key,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: OpenDisputeBody,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> OpenDisputeResponse201 | OpenDisputeResponse403 | Problem | None:
    """Open a dispute or refund case for the customer on the request's job (optionally one milestone)

     An agent key with the scope(s) `disputes:manage`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (OpenDisputeBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenDisputeResponse201 | OpenDisputeResponse403 | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_service_request_token=x_service_request_token,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
