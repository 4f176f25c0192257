from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.upload_request_file_response_201 import UploadRequestFileResponse201
from ...models.upload_request_file_response_403 import UploadRequestFileResponse403
from ...models.upload_request_file_response_413 import UploadRequestFileResponse413
from ...models.upload_request_file_response_415 import UploadRequestFileResponse415
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: str,
    filename: str,
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

    params: dict[str, Any] = {}

    params["filename"] = filename

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/request/{id}/files".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Problem
    | UploadRequestFileResponse201
    | UploadRequestFileResponse403
    | UploadRequestFileResponse413
    | UploadRequestFileResponse415
    | None
):
    if response.status_code == 201:
        response_201 = UploadRequestFileResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = UploadRequestFileResponse403.from_dict(response.json())

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
        response_413 = UploadRequestFileResponse413.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = UploadRequestFileResponse415.from_dict(response.json())

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
    Problem
    | UploadRequestFileResponse201
    | UploadRequestFileResponse403
    | UploadRequestFileResponse413
    | UploadRequestFileResponse415
]:
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
    body: str,
    filename: str,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[
    Problem
    | UploadRequestFileResponse201
    | UploadRequestFileResponse403
    | UploadRequestFileResponse413
    | UploadRequestFileResponse415
]:
    """Upload a file into the request's conversation (the body is the file's bytes); attach it to a message
    next (extension)

     An agent key with the scope(s) `messages:create`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        filename (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UploadRequestFileResponse201 | UploadRequestFileResponse403 | UploadRequestFileResponse413 | UploadRequestFileResponse415]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        filename=filename,
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
    body: str,
    filename: str,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> (
    Problem
    | UploadRequestFileResponse201
    | UploadRequestFileResponse403
    | UploadRequestFileResponse413
    | UploadRequestFileResponse415
    | None
):
    """Upload a file into the request's conversation (the body is the file's bytes); attach it to a message
    next (extension)

     An agent key with the scope(s) `messages:create`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        filename (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UploadRequestFileResponse201 | UploadRequestFileResponse403 | UploadRequestFileResponse413 | UploadRequestFileResponse415
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        filename=filename,
        x_service_request_token=x_service_request_token,
        idempotency_key=idempotency_key,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: str,
    filename: str,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[
    Problem
    | UploadRequestFileResponse201
    | UploadRequestFileResponse403
    | UploadRequestFileResponse413
    | UploadRequestFileResponse415
]:
    """Upload a file into the request's conversation (the body is the file's bytes); attach it to a message
    next (extension)

     An agent key with the scope(s) `messages:create`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        filename (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UploadRequestFileResponse201 | UploadRequestFileResponse403 | UploadRequestFileResponse413 | UploadRequestFileResponse415]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        filename=filename,
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
    body: str,
    filename: str,
    x_service_request_token: str,
    idempotency_key: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> (
    Problem
    | UploadRequestFileResponse201
    | UploadRequestFileResponse403
    | UploadRequestFileResponse413
    | UploadRequestFileResponse415
    | None
):
    """Upload a file into the request's conversation (the body is the file's bytes); attach it to a message
    next (extension)

     An agent key with the scope(s) `messages:create`. The request's token goes in `X-Service-Request-
    Token`.

    Args:
        id (str):
        filename (str):
        x_service_request_token (str):
        idempotency_key (str | Unset):
        request_id (str | Unset):
        body (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UploadRequestFileResponse201 | UploadRequestFileResponse403 | UploadRequestFileResponse413 | UploadRequestFileResponse415
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            filename=filename,
            x_service_request_token=x_service_request_token,
            idempotency_key=idempotency_key,
            request_id=request_id,
        )
    ).parsed
