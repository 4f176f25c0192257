from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_events_response_200 import ListEventsResponse200
from ...models.list_events_response_403 import ListEventsResponse403
from ...models.list_events_type import ListEventsType
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    request_id_query: str | Unset = UNSET,
    request_id_header: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id_header, Unset):
        headers["Request-Id"] = request_id_header

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["starting_after"] = starting_after

    params["ending_before"] = ending_before

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_

    params["type"] = json_type_

    params["request_id"] = request_id_query

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListEventsResponse200 | ListEventsResponse403 | Problem | None:
    if response.status_code == 200:
        response_200 = ListEventsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ListEventsResponse403.from_dict(response.json())

        return response_403

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
) -> Response[ListEventsResponse200 | ListEventsResponse403 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    request_id_query: str | Unset = UNSET,
    request_id_header: str | Unset = UNSET,
) -> Response[ListEventsResponse200 | ListEventsResponse403 | Problem]:
    """Events of the integration's requests from the last 30 days, newest first, by type and request

     An agent key with the scope(s) `events:read`.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (ListEventsType | Unset):
        request_id_query (str | Unset):
        request_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListEventsResponse200 | ListEventsResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        starting_after=starting_after,
        ending_before=ending_before,
        type_=type_,
        request_id_query=request_id_query,
        request_id_header=request_id_header,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    request_id_query: str | Unset = UNSET,
    request_id_header: str | Unset = UNSET,
) -> ListEventsResponse200 | ListEventsResponse403 | Problem | None:
    """Events of the integration's requests from the last 30 days, newest first, by type and request

     An agent key with the scope(s) `events:read`.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (ListEventsType | Unset):
        request_id_query (str | Unset):
        request_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListEventsResponse200 | ListEventsResponse403 | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        starting_after=starting_after,
        ending_before=ending_before,
        type_=type_,
        request_id_query=request_id_query,
        request_id_header=request_id_header,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    request_id_query: str | Unset = UNSET,
    request_id_header: str | Unset = UNSET,
) -> Response[ListEventsResponse200 | ListEventsResponse403 | Problem]:
    """Events of the integration's requests from the last 30 days, newest first, by type and request

     An agent key with the scope(s) `events:read`.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (ListEventsType | Unset):
        request_id_query (str | Unset):
        request_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListEventsResponse200 | ListEventsResponse403 | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        starting_after=starting_after,
        ending_before=ending_before,
        type_=type_,
        request_id_query=request_id_query,
        request_id_header=request_id_header,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    request_id_query: str | Unset = UNSET,
    request_id_header: str | Unset = UNSET,
) -> ListEventsResponse200 | ListEventsResponse403 | Problem | None:
    """Events of the integration's requests from the last 30 days, newest first, by type and request

     An agent key with the scope(s) `events:read`.

    Args:
        limit (int | Unset):  Default: 20.
        starting_after (str | Unset):
        ending_before (str | Unset):
        type_ (ListEventsType | Unset):
        request_id_query (str | Unset):
        request_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListEventsResponse200 | ListEventsResponse403 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            starting_after=starting_after,
            ending_before=ending_before,
            type_=type_,
            request_id_query=request_id_query,
            request_id_header=request_id_header,
        )
    ).parsed
