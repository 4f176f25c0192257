from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_request_files_response_200 import ListRequestFilesResponse200
from ...models.list_request_files_response_403 import ListRequestFilesResponse403
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    x_service_request_token: str,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Service-Request-Token"] = x_service_request_token

    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/request/{id}/files".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem | None:
    if response.status_code == 200:
        response_200 = ListRequestFilesResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ListRequestFilesResponse403.from_dict(response.json())

        return response_403

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
) -> Response[ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem]:
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
    x_service_request_token: str,
    request_id: str | Unset = UNSET,
) -> Response[ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem]:
    """The request's files (the conversation's and the deliverables'), newest first, each with a download
    URL that works for 15 minutes (extension)

     An agent key with the scope(s) `requests:read`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        x_service_request_token=x_service_request_token,
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
    x_service_request_token: str,
    request_id: str | Unset = UNSET,
) -> ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem | None:
    """The request's files (the conversation's and the deliverables'), newest first, each with a download
    URL that works for 15 minutes (extension)

     An agent key with the scope(s) `requests:read`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        x_service_request_token=x_service_request_token,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    x_service_request_token: str,
    request_id: str | Unset = UNSET,
) -> Response[ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem]:
    """The request's files (the conversation's and the deliverables'), newest first, each with a download
    URL that works for 15 minutes (extension)

     An agent key with the scope(s) `requests:read`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        x_service_request_token=x_service_request_token,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    x_service_request_token: str,
    request_id: str | Unset = UNSET,
) -> ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem | None:
    """The request's files (the conversation's and the deliverables'), newest first, each with a download
    URL that works for 15 minutes (extension)

     An agent key with the scope(s) `requests:read`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        x_service_request_token (str):
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListRequestFilesResponse200 | ListRequestFilesResponse403 | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_service_request_token=x_service_request_token,
            request_id=request_id,
        )
    ).parsed
