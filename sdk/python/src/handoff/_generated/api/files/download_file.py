from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    file_id: str,
    *,
    purpose: str,
    expires: str,
    signature: str,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    params: dict[str, Any] = {}

    params["purpose"] = purpose

    params["expires"] = expires

    params["signature"] = signature

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/files/{file_id}/content".format(
            file_id=quote(str(file_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | str | None:
    if response.status_code == 200:
        response_200 = cast(str, response.content)
        return response_200

    if response.status_code == 206:
        response_206 = cast(str, response.content)
        return response_206

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 405:
        response_405 = Problem.from_dict(response.json())

        return response_405

    if response.status_code == 416:
        response_416 = Problem.from_dict(response.json())

        return response_416

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
) -> Response[Any | Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    purpose: str,
    expires: str,
    signature: str,
    request_id: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """Download a file by its signed `download_url` (no credentials: the URL is the capability, until it
    expires); ranges and `If-None-Match` are honoured (extension)

     Anyone may call this; it is rate limited per client address.

    Args:
        file_id (str):
        purpose (str):
        expires (str):
        signature (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        file_id=file_id,
        purpose=purpose,
        expires=expires,
        signature=signature,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    purpose: str,
    expires: str,
    signature: str,
    request_id: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """Download a file by its signed `download_url` (no credentials: the URL is the capability, until it
    expires); ranges and `If-None-Match` are honoured (extension)

     Anyone may call this; it is rate limited per client address.

    Args:
        file_id (str):
        purpose (str):
        expires (str):
        signature (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return sync_detailed(
        file_id=file_id,
        client=client,
        purpose=purpose,
        expires=expires,
        signature=signature,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    purpose: str,
    expires: str,
    signature: str,
    request_id: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """Download a file by its signed `download_url` (no credentials: the URL is the capability, until it
    expires); ranges and `If-None-Match` are honoured (extension)

     Anyone may call this; it is rate limited per client address.

    Args:
        file_id (str):
        purpose (str):
        expires (str):
        signature (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        file_id=file_id,
        purpose=purpose,
        expires=expires,
        signature=signature,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    file_id: str,
    *,
    client: AuthenticatedClient | Client,
    purpose: str,
    expires: str,
    signature: str,
    request_id: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """Download a file by its signed `download_url` (no credentials: the URL is the capability, until it
    expires); ranges and `If-None-Match` are honoured (extension)

     Anyone may call this; it is rate limited per client address.

    Args:
        file_id (str):
        purpose (str):
        expires (str):
        signature (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return (
        await asyncio_detailed(
            file_id=file_id,
            client=client,
            purpose=purpose,
            expires=expires,
            signature=signature,
            request_id=request_id,
        )
    ).parsed
