import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.count_requests_as_staff_marketplace_review import (
    CountRequestsAsStaffMarketplaceReview,
)
from ...models.count_requests_as_staff_response_200 import (
    CountRequestsAsStaffResponse200,
)
from ...models.count_requests_as_staff_routing import (
    CountRequestsAsStaffRouting,
)
from ...models.count_requests_as_staff_routing_state import (
    CountRequestsAsStaffRoutingState,
)
from ...models.count_requests_as_staff_status import (
    CountRequestsAsStaffStatus,
)
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: CountRequestsAsStaffStatus | Unset = UNSET,
    routing: CountRequestsAsStaffRouting | Unset = UNSET,
    routing_state: CountRequestsAsStaffRoutingState | Unset = UNSET,
    marketplace_review: CountRequestsAsStaffMarketplaceReview | Unset = UNSET,
    category: str | Unset = UNSET,
    integration_id: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(request_id, Unset):
        headers["Request-Id"] = request_id

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status

    params["status"] = json_status

    json_routing: str | Unset = UNSET
    if not isinstance(routing, Unset):
        json_routing = routing

    params["routing"] = json_routing

    json_routing_state: str | Unset = UNSET
    if not isinstance(routing_state, Unset):
        json_routing_state = routing_state

    params["routing_state"] = json_routing_state

    json_marketplace_review: str | Unset = UNSET
    if not isinstance(marketplace_review, Unset):
        json_marketplace_review = marketplace_review

    params["marketplace_review"] = json_marketplace_review

    params["category"] = category

    params["integration_id"] = integration_id

    json_created_after: str | Unset = UNSET
    if not isinstance(created_after, Unset):
        json_created_after = created_after.isoformat()
    params["created_after"] = json_created_after

    json_created_before: str | Unset = UNSET
    if not isinstance(created_before, Unset):
        json_created_before = created_before.isoformat()
    params["created_before"] = json_created_before

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/staff/request-counts",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CountRequestsAsStaffResponse200 | Problem | None:
    if response.status_code == 200:
        response_200 = CountRequestsAsStaffResponse200.from_dict(response.json())

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
) -> Response[CountRequestsAsStaffResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: CountRequestsAsStaffStatus | Unset = UNSET,
    routing: CountRequestsAsStaffRouting | Unset = UNSET,
    routing_state: CountRequestsAsStaffRoutingState | Unset = UNSET,
    marketplace_review: CountRequestsAsStaffMarketplaceReview | Unset = UNSET,
    category: str | Unset = UNSET,
    integration_id: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[CountRequestsAsStaffResponse200 | Problem]:
    """How many requests of a filter are in each status and each routing state

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        status (CountRequestsAsStaffStatus | Unset):
        routing (CountRequestsAsStaffRouting | Unset):
        routing_state (CountRequestsAsStaffRoutingState | Unset): `routing`: the rules are
            choosing. `offered`: an offer waits for its provider. `accepted`: a provider accepted.
            `queued`: waiting for staff (`queue_reason` says why). `manual`: staff route this request
            by hand (a `PATCH` of its routing, or `stop`).
        marketplace_review (CountRequestsAsStaffMarketplaceReview | Unset):
        category (str | Unset):
        integration_id (str | Unset):
        created_after (datetime.datetime | Unset): Only requests created after this time (an age
            filter: younger than).
        created_before (datetime.datetime | Unset): Only requests created before this time (an age
            filter: older than).
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CountRequestsAsStaffResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        routing=routing,
        routing_state=routing_state,
        marketplace_review=marketplace_review,
        category=category,
        integration_id=integration_id,
        created_after=created_after,
        created_before=created_before,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: CountRequestsAsStaffStatus | Unset = UNSET,
    routing: CountRequestsAsStaffRouting | Unset = UNSET,
    routing_state: CountRequestsAsStaffRoutingState | Unset = UNSET,
    marketplace_review: CountRequestsAsStaffMarketplaceReview | Unset = UNSET,
    category: str | Unset = UNSET,
    integration_id: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> CountRequestsAsStaffResponse200 | Problem | None:
    """How many requests of a filter are in each status and each routing state

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        status (CountRequestsAsStaffStatus | Unset):
        routing (CountRequestsAsStaffRouting | Unset):
        routing_state (CountRequestsAsStaffRoutingState | Unset): `routing`: the rules are
            choosing. `offered`: an offer waits for its provider. `accepted`: a provider accepted.
            `queued`: waiting for staff (`queue_reason` says why). `manual`: staff route this request
            by hand (a `PATCH` of its routing, or `stop`).
        marketplace_review (CountRequestsAsStaffMarketplaceReview | Unset):
        category (str | Unset):
        integration_id (str | Unset):
        created_after (datetime.datetime | Unset): Only requests created after this time (an age
            filter: younger than).
        created_before (datetime.datetime | Unset): Only requests created before this time (an age
            filter: older than).
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CountRequestsAsStaffResponse200 | Problem
    """

    return sync_detailed(
        client=client,
        status=status,
        routing=routing,
        routing_state=routing_state,
        marketplace_review=marketplace_review,
        category=category,
        integration_id=integration_id,
        created_after=created_after,
        created_before=created_before,
        request_id=request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: CountRequestsAsStaffStatus | Unset = UNSET,
    routing: CountRequestsAsStaffRouting | Unset = UNSET,
    routing_state: CountRequestsAsStaffRoutingState | Unset = UNSET,
    marketplace_review: CountRequestsAsStaffMarketplaceReview | Unset = UNSET,
    category: str | Unset = UNSET,
    integration_id: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> Response[CountRequestsAsStaffResponse200 | Problem]:
    """How many requests of a filter are in each status and each routing state

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        status (CountRequestsAsStaffStatus | Unset):
        routing (CountRequestsAsStaffRouting | Unset):
        routing_state (CountRequestsAsStaffRoutingState | Unset): `routing`: the rules are
            choosing. `offered`: an offer waits for its provider. `accepted`: a provider accepted.
            `queued`: waiting for staff (`queue_reason` says why). `manual`: staff route this request
            by hand (a `PATCH` of its routing, or `stop`).
        marketplace_review (CountRequestsAsStaffMarketplaceReview | Unset):
        category (str | Unset):
        integration_id (str | Unset):
        created_after (datetime.datetime | Unset): Only requests created after this time (an age
            filter: younger than).
        created_before (datetime.datetime | Unset): Only requests created before this time (an age
            filter: older than).
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CountRequestsAsStaffResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        routing=routing,
        routing_state=routing_state,
        marketplace_review=marketplace_review,
        category=category,
        integration_id=integration_id,
        created_after=created_after,
        created_before=created_before,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: CountRequestsAsStaffStatus | Unset = UNSET,
    routing: CountRequestsAsStaffRouting | Unset = UNSET,
    routing_state: CountRequestsAsStaffRoutingState | Unset = UNSET,
    marketplace_review: CountRequestsAsStaffMarketplaceReview | Unset = UNSET,
    category: str | Unset = UNSET,
    integration_id: str | Unset = UNSET,
    created_after: datetime.datetime | Unset = UNSET,
    created_before: datetime.datetime | Unset = UNSET,
    request_id: str | Unset = UNSET,
) -> CountRequestsAsStaffResponse200 | Problem | None:
    """How many requests of a filter are in each status and each routing state

     Staff, with a JWT whose `roles` contain `staff`.

    Args:
        status (CountRequestsAsStaffStatus | Unset):
        routing (CountRequestsAsStaffRouting | Unset):
        routing_state (CountRequestsAsStaffRoutingState | Unset): `routing`: the rules are
            choosing. `offered`: an offer waits for its provider. `accepted`: a provider accepted.
            `queued`: waiting for staff (`queue_reason` says why). `manual`: staff route this request
            by hand (a `PATCH` of its routing, or `stop`).
        marketplace_review (CountRequestsAsStaffMarketplaceReview | Unset):
        category (str | Unset):
        integration_id (str | Unset):
        created_after (datetime.datetime | Unset): Only requests created after this time (an age
            filter: younger than).
        created_before (datetime.datetime | Unset): Only requests created before this time (an age
            filter: older than).
        request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CountRequestsAsStaffResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            routing=routing,
            routing_state=routing_state,
            marketplace_review=marketplace_review,
            category=category,
            integration_id=integration_id,
            created_after=created_after,
            created_before=created_before,
            request_id=request_id,
        )
    ).parsed
