from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_async_api_document_response_200 import GetAsyncApiDocumentResponse200
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    if_none_match: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/asyncapi.json",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | GetAsyncApiDocumentResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = GetAsyncApiDocumentResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
) -> Response[Any | GetAsyncApiDocumentResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Any | GetAsyncApiDocumentResponse200 | Problem]:
    """The AsyncAPI 3.0 document of the events (webhooks and the NATS bus)

     Anyone may call this; it is rate limited per client address.

    Args:
        if_none_match (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GetAsyncApiDocumentResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        if_none_match=if_none_match,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Any | GetAsyncApiDocumentResponse200 | Problem | None:
    """The AsyncAPI 3.0 document of the events (webhooks and the NATS bus)

     Anyone may call this; it is rate limited per client address.

    Args:
        if_none_match (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GetAsyncApiDocumentResponse200 | Problem
    """

    return sync_detailed(
        client=client,
        if_none_match=if_none_match,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[Any | GetAsyncApiDocumentResponse200 | Problem]:
    """The AsyncAPI 3.0 document of the events (webhooks and the NATS bus)

     Anyone may call this; it is rate limited per client address.

    Args:
        if_none_match (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GetAsyncApiDocumentResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        if_none_match=if_none_match,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Any | GetAsyncApiDocumentResponse200 | Problem | None:
    """The AsyncAPI 3.0 document of the events (webhooks and the NATS bus)

     Anyone may call this; it is rate limited per client address.

    Args:
        if_none_match (str | Unset):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GetAsyncApiDocumentResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            if_none_match=if_none_match,
            request_id=request_id,
        )
    ).parsed
