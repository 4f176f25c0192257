import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_deadlines_overdue import (
    ListDeadlinesOverdue,
)
from ...models.list_deadlines_response_200 import ListDeadlinesResponse200
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    before: datetime.datetime | Unset = UNSET,
    overdue: ListDeadlinesOverdue | Unset = UNSET,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    params: dict[str, Any] = {}

    json_before: str | Unset = UNSET
    if not isinstance(before, Unset):
        json_before = before.isoformat()
    params["before"] = json_before

    json_overdue: str | Unset = UNSET
    if not isinstance(overdue, Unset):
        json_overdue = overdue

    params["overdue"] = json_overdue

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/staff/deadlines",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListDeadlinesResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = ListDeadlinesResponse200.from_dict(response.json())

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
) -> Response[ListDeadlinesResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    before: datetime.datetime | Unset = UNSET,
    overdue: ListDeadlinesOverdue | Unset = UNSET,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> Response[ListDeadlinesResponse200 | Problem]:
    """Everything waiting on somebody, soonest deadline first, with what happens when it passes

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        before (datetime.datetime | Unset):
        overdue (ListDeadlinesOverdue | Unset):
        limit (int | Unset):  Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListDeadlinesResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        before=before,
        overdue=overdue,
        limit=limit,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    before: datetime.datetime | Unset = UNSET,
    overdue: ListDeadlinesOverdue | Unset = UNSET,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> ListDeadlinesResponse200 | Problem | None:
    """Everything waiting on somebody, soonest deadline first, with what happens when it passes

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        before (datetime.datetime | Unset):
        overdue (ListDeadlinesOverdue | Unset):
        limit (int | Unset):  Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListDeadlinesResponse200 | Problem
    """

    return sync_detailed(
        client=client,
        before=before,
        overdue=overdue,
        limit=limit,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    before: datetime.datetime | Unset = UNSET,
    overdue: ListDeadlinesOverdue | Unset = UNSET,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> Response[ListDeadlinesResponse200 | Problem]:
    """Everything waiting on somebody, soonest deadline first, with what happens when it passes

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        before (datetime.datetime | Unset):
        overdue (ListDeadlinesOverdue | Unset):
        limit (int | Unset):  Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListDeadlinesResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        before=before,
        overdue=overdue,
        limit=limit,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    before: datetime.datetime | Unset = UNSET,
    overdue: ListDeadlinesOverdue | Unset = UNSET,
    limit: int | Unset = 100,
    request_id: str | Unset = UNSET,
) -> ListDeadlinesResponse200 | Problem | None:
    """Everything waiting on somebody, soonest deadline first, with what happens when it passes

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        before (datetime.datetime | Unset):
        overdue (ListDeadlinesOverdue | Unset):
        limit (int | Unset):  Default: 100.
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListDeadlinesResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            before=before,
            overdue=overdue,
            limit=limit,
            request_id=request_id,
        )
    ).parsed
