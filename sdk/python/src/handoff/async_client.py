"""``AsyncHandoff``: the asynchronous client of the agent API, the same calls as ``Handoff``
(client.py) awaited, and lists and ``updates()`` as async iterators."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from types import ModuleType
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx

from . import _core, _files
from ._core import Item_co, Page, body, given, ok
from ._generated.api.deliverables import get_deliverable, list_deliverables
from ._generated.api.disputes import (
    comment_on_dispute,
    get_dispute,
    list_disputes,
    open_dispute,
    withdraw_dispute,
)
from ._generated.api.events import get_event, list_events, redeliver_event
from ._generated.api.files import get_request_file, list_request_files
from ._generated.api.jobs import get_job, list_jobs
from ._generated.api.meta import get_capabilities, get_me
from ._generated.api.milestones import (
    approve_milestone,
    get_milestone,
    list_milestones,
    request_milestone_changes,
)
from ._generated.api.proposals import (
    accept_proposal,
    decline_proposal,
    get_proposal,
    list_proposals,
)
from ._generated.api.requests import (
    cancel_request,
    create_handoff_request,
    get_request,
    list_request_messages,
    list_request_payment_requests,
    list_request_payments,
    propose_payment_request,
    send_message,
    wait_for_request_updates,
)
from ._generated.api.test_clocks import (
    advance_test_clock,
    create_test_clock,
    delete_test_clock,
    get_test_clock,
    list_test_clocks,
)
from ._generated.api.webhooks import (
    create_webhook_endpoint,
    delete_webhook_endpoint,
    get_webhook_endpoint,
    list_webhook_attempts,
    list_webhook_endpoints,
    rotate_webhook_endpoint_secret,
    update_webhook_endpoint,
)
from ._generated.client import AuthenticatedClient
from ._generated.models import (
    AcceptProposalResponse200,
    AdvanceTestClockBody,
    AdvanceTestClockResponse200,
    ApproveMilestoneResponse200,
    CancelRequestBody,
    CancelRequestResponse200,
    CommentOnDisputeBody,
    CommentOnDisputeResponse200,
    CreateHandoffRequestBody,
    CreateHandoffRequestResponse201,
    CreateTestClockBody,
    CreateTestClockResponse201,
    CreateWebhookEndpointBody,
    CreateWebhookEndpointResponse201,
    DeclineProposalBody,
    DeclineProposalResponse200,
    DeleteTestClockResponse200,
    DeleteWebhookEndpointResponse200,
    GetCapabilitiesResponse200,
    GetDeliverableResponse200,
    GetDisputeResponse200,
    GetEventResponse200,
    GetJobResponse200,
    GetMeResponse200,
    GetMilestoneResponse200,
    GetProposalResponse200,
    GetRequestFileResponse200,
    GetRequestResponse200,
    GetTestClockResponse200,
    GetWebhookEndpointResponse200,
    ListDeliverablesResponse200,
    ListDeliverablesResponse200DataItem,
    ListDisputesResponse200,
    ListDisputesResponse200DataItem,
    ListEventsResponse200,
    ListEventsResponse200DataItem,
    ListJobsResponse200,
    ListJobsResponse200DataItem,
    ListMilestonesResponse200,
    ListMilestonesResponse200DataItem,
    ListProposalsResponse200,
    ListProposalsResponse200DataItem,
    ListRequestFilesResponse200,
    ListRequestFilesResponse200DataItem,
    ListRequestMessagesResponse200,
    ListRequestMessagesResponse200DataItem,
    ListRequestPaymentRequestsResponse200,
    ListRequestPaymentRequestsResponse200DataItem,
    ListRequestPaymentsResponse200,
    ListRequestPaymentsResponse200DataItem,
    ListTestClocksResponse200,
    ListTestClocksResponse200DataItem,
    ListWebhookAttemptsResponse200,
    ListWebhookAttemptsResponse200DataItem,
    ListWebhookEndpointsResponse200,
    ListWebhookEndpointsResponse200DataItem,
    OpenDisputeBody,
    OpenDisputeResponse201,
    ProposePaymentRequestBody,
    ProposePaymentRequestResponse201,
    RedeliverEventResponse202,
    RequestMilestoneChangesBody,
    RequestMilestoneChangesResponse200,
    RotateWebhookEndpointSecretResponse200,
    SendMessageBody,
    SendMessageResponse201,
    UpdateWebhookEndpointBody,
    UpdateWebhookEndpointResponse200,
    UploadRequestFileResponse201,
    WaitForRequestUpdatesResponse200,
    WithdrawDisputeResponse200,
)
from ._retry import AsyncRetryingTransport, RetryPolicy
from .errors import HandoffError
from .models import Event

Json = Mapping[str, Any]
T = TypeVar("T")


class _Part:
    """One group of operations; each call goes through ``_call``, which raises problems."""

    def __init__(self, api: AuthenticatedClient, tokens: _core.Tokens) -> None:
        self._api = api
        self._tokens = tokens

    async def _call(self, op: ModuleType, kind: type[T], *ids: str, **kwargs: Any) -> T:
        return ok(await op.asyncio_detailed(*ids, client=self._api, **kwargs), kind)

    def _list(
        self, op: ModuleType, kind: type[Page[Item_co]], *ids: str, **kwargs: Any
    ) -> AsyncIterator[Item_co]:
        return _core.async_pages(
            lambda cursor: self._call(
                op, kind, *ids, limit=_core.PAGE_SIZE, starting_after=cursor, **kwargs
            )
        )


class _OfRequest(_Part):
    """Operations under ``/v1/request/{id}``: each sends the request's token (``token=`` or
    the one remembered for the id)."""

    async def _on(
        self,
        op: ModuleType,
        kind: type[T],
        request_id: str,
        *ids: str,
        token: str | None,
        **kwargs: Any,
    ) -> T:
        sent = self._tokens.for_request(request_id, token)
        return await self._call(op, kind, request_id, *ids, x_service_request_token=sent, **kwargs)

    def _list_on(
        self,
        op: ModuleType,
        kind: type[Page[Item_co]],
        request_id: str,
        token: str | None,
        **kwargs: Any,
    ) -> AsyncIterator[Item_co]:
        sent = self._tokens.for_request(request_id, token)
        return self._list(op, kind, request_id, x_service_request_token=sent, **kwargs)


class Requests(_OfRequest):
    """Hand-off requests: create, read, talk, propose payments, follow their events."""

    async def create(
        self,
        request: CreateHandoffRequestBody | Json | None = None,
        *,
        idempotency_key: str | None = None,
        **fields: Any,
    ) -> CreateHandoffRequestResponse201:
        """Hands a customer's request over; the request token in the answer is remembered.

        The body as a model or a dict, or as keywords: ``create(message="…", budget_max=150)``.
        """
        created = await self._call(
            create_handoff_request,
            CreateHandoffRequestResponse201,
            body=body(CreateHandoffRequestBody, _core.body_of(request, fields)),
            idempotency_key=given(idempotency_key),
        )
        self._tokens.remember(created.id, created.request_token)
        return created

    def use_token(self, request_id: str, token: str) -> None:
        """Remembers the request token of a request created elsewhere."""
        self._tokens.remember(request_id, token)

    async def get(self, request_id: str, *, token: str | None = None) -> GetRequestResponse200:
        """The request with its newest conversation and approved payment requests."""
        return await self._on(get_request, GetRequestResponse200, request_id, token=token)

    async def send_message(
        self,
        request_id: str,
        message: str | SendMessageBody | Json,
        *,
        attachments: Sequence[str] | None = None,
        token: str | None = None,
    ) -> SendMessageResponse201:
        """Writes into the conversation; ``attachments`` names files uploaded with
        ``upload_file`` first (their ids, at most 10), which the provider can then open."""
        sent = {"message": message} if isinstance(message, str) else message
        if attachments is not None:
            if not isinstance(sent, Mapping):
                raise TypeError("give attachments inside the body model, or the message as text")
            sent = {**sent, "attachments": list(attachments)}
        return await self._on(
            send_message,
            SendMessageResponse201,
            request_id,
            token=token,
            body=body(SendMessageBody, sent),
        )

    async def upload_file(
        self,
        request_id: str,
        file: _files.FileContent,
        *,
        filename: str,
        content_type: str | None = None,
        token: str | None = None,
    ) -> UploadRequestFileResponse201:
        """Uploads a file into the request's conversation and answers it (``id``, ``size``,
        ``sha256``, a ``download_url`` for 15 minutes); attach it next with
        ``send_message(..., attachments=[file.id])``.

        ``file`` is the bytes, a path (``str`` or ``pathlib.Path``: opened and streamed) or a
        binary file object (streamed from where it stands). ``content_type`` must agree with the
        bytes; left out, the bytes decide (``application/octet-stream``)."""
        sent = self._tokens.for_request(request_id, token)
        http = self._api.get_async_httpx_client()
        request = _files.upload_request(
            http,
            f"/v1/request/{quote(request_id, safe='')}/files",
            file,
            filename=filename,
            content_type=content_type,
            headers={"X-Service-Request-Token": sent},
        )
        response = await http.send(request)
        return UploadRequestFileResponse201.from_dict(response.json())

    async def list_files(
        self, request_id: str, *, token: str | None = None
    ) -> list[ListRequestFilesResponse200DataItem]:
        """The request's files (its conversation's and its deliverables'), newest first, each
        with a ``download_url`` that works for 15 minutes."""
        listed = await self._on(
            list_request_files, ListRequestFilesResponse200, request_id, token=token
        )
        return list(listed.data)

    async def get_file(
        self, request_id: str, file_id: str, *, token: str | None = None
    ) -> GetRequestFileResponse200:
        """One file of the request with a fresh ``download_url``."""
        return await self._on(
            get_request_file, GetRequestFileResponse200, request_id, file_id, token=token
        )

    async def download_file(
        self, file: _files.DownloadSource, *, token: str | None = None
    ) -> bytes:
        """A file's bytes, from a file (as ``upload_file``, ``list_files`` or ``get_file``
        answered it) or its ``download_url``. The URL is sent without the key; given the file,
        an expired URL (403 ``download_url_invalid``) is renewed by reading the file again."""
        http = self._api.get_async_httpx_client()
        try:
            response = await http.send(_files.download_request(http, _files.url_of(file)))
        except HandoffError as error:
            stale = _files.renewable(file)
            if stale is None or error.code != "download_url_invalid":
                raise
            fresh = await self.get_file(stale.request_id, stale.id, token=token)
            response = await http.send(_files.download_request(http, fresh.download_url))
        return response.content

    async def propose_payment(
        self,
        request_id: str,
        payment: ProposePaymentRequestBody | Json,
        *,
        token: str | None = None,
    ) -> ProposePaymentRequestResponse201:
        """Proposes a payment request (test mode approves it at once; live, staff do)."""
        proposed = body(ProposePaymentRequestBody, payment)
        return await self._on(
            propose_payment_request,
            ProposePaymentRequestResponse201,
            request_id,
            token=token,
            body=proposed,
        )

    async def cancel(
        self, request_id: str, reason: str | None = None, *, token: str | None = None
    ) -> CancelRequestResponse200:
        """Cancels the request while no provider is engaged (``submitted``, ``routed``), with an
        optional ``reason`` for staff, and answers it as ``get`` reads it. Once a proposal was
        accepted, ``HandoffError`` 409 ``invalid_state_transition``: open a dispute instead."""
        cancelled = given(
            None if reason is None else CancelRequestBody.from_dict({"reason": reason})
        )
        return await self._on(
            cancel_request, CancelRequestResponse200, request_id, token=token, body=cancelled
        )

    async def wait_for_updates(
        self, request_id: str, *, after: int = 0, wait: int = 25, token: str | None = None
    ) -> WaitForRequestUpdatesResponse200:
        """One long poll: the events after ``after`` in sequence order, answered at once when
        there are some, else after up to ``wait`` seconds (at most 25) with none."""
        return await self._on(
            wait_for_request_updates,
            WaitForRequestUpdatesResponse200,
            request_id,
            token=token,
            after=after,
            wait=wait,
        )

    async def updates(
        self,
        request_id: str,
        *,
        after: int = 0,
        wait: int = 25,
        timeout: float | None = None,
        token: str | None = None,
    ) -> AsyncIterator[Event]:
        """Every event of the request after ``after``, as it happens, in sequence order. It
        long-polls without end: ``break`` when the request is where you need it. With
        ``timeout`` (seconds), it raises ``TimeoutError`` once that long has passed."""
        deadline = _core.Deadline(timeout)
        while True:
            poll = deadline.poll_seconds(wait)
            page = await self.wait_for_updates(request_id, after=after, wait=poll, token=token)
            for event in page.data:
                after = max(after, event.data.sequence)
                yield event

    def messages(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListRequestMessagesResponse200DataItem]:
        """The whole conversation, newest first (a request read shows the newest 1,000)."""
        return self._list_on(
            list_request_messages, ListRequestMessagesResponse200, request_id, token
        )

    def payment_requests(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListRequestPaymentRequestsResponse200DataItem]:
        """Every payment request of the request, whatever its status, newest first."""
        return self._list_on(
            list_request_payment_requests, ListRequestPaymentRequestsResponse200, request_id, token
        )

    def payments(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListRequestPaymentsResponse200DataItem]:
        """The payments of the request (one per approved payment request) with their outcome."""
        return self._list_on(
            list_request_payments, ListRequestPaymentsResponse200, request_id, token
        )


class Proposals(_OfRequest):
    """Providers' proposals on a request; accepting one starts its job."""

    def list(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListProposalsResponse200DataItem]:
        return self._list_on(list_proposals, ListProposalsResponse200, request_id, token)

    async def get(
        self, request_id: str, proposal_id: str, *, token: str | None = None
    ) -> GetProposalResponse200:
        return await self._on(
            get_proposal, GetProposalResponse200, request_id, proposal_id, token=token
        )

    async def accept(
        self, request_id: str, proposal_id: str, *, token: str | None = None
    ) -> AcceptProposalResponse200:
        """Accepts one proposal: its job starts, the other open proposals are declined."""
        return await self._on(
            accept_proposal, AcceptProposalResponse200, request_id, proposal_id, token=token
        )

    async def decline(
        self,
        request_id: str,
        proposal_id: str,
        reason: str | None = None,
        *,
        token: str | None = None,
    ) -> DeclineProposalResponse200:
        declined = given(
            None if reason is None else DeclineProposalBody.from_dict({"reason": reason})
        )
        return await self._on(
            decline_proposal,
            DeclineProposalResponse200,
            request_id,
            proposal_id,
            token=token,
            body=declined,
        )


class Milestones(_OfRequest):
    """The job's milestones: review a submitted one (approve, or ask for changes)."""

    def list(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListMilestonesResponse200DataItem]:
        return self._list_on(list_milestones, ListMilestonesResponse200, request_id, token)

    async def get(
        self, request_id: str, milestone_id: str, *, token: str | None = None
    ) -> GetMilestoneResponse200:
        return await self._on(
            get_milestone, GetMilestoneResponse200, request_id, milestone_id, token=token
        )

    async def approve(
        self, request_id: str, milestone_id: str, *, token: str | None = None
    ) -> ApproveMilestoneResponse200:
        """Approves a submitted milestone: its payment follows."""
        return await self._on(
            approve_milestone, ApproveMilestoneResponse200, request_id, milestone_id, token=token
        )

    async def request_changes(
        self, request_id: str, milestone_id: str, reason: str, *, token: str | None = None
    ) -> RequestMilestoneChangesResponse200:
        changes = RequestMilestoneChangesBody.from_dict({"reason": reason})
        return await self._on(
            request_milestone_changes,
            RequestMilestoneChangesResponse200,
            request_id,
            milestone_id,
            token=token,
            body=changes,
        )


class Disputes(_OfRequest):
    """Cases the agent opens on a milestone or the job."""

    def list(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListDisputesResponse200DataItem]:
        return self._list_on(list_disputes, ListDisputesResponse200, request_id, token)

    async def get(
        self, request_id: str, dispute_id: str, *, token: str | None = None
    ) -> GetDisputeResponse200:
        return await self._on(
            get_dispute, GetDisputeResponse200, request_id, dispute_id, token=token
        )

    async def open(
        self, request_id: str, dispute: OpenDisputeBody | Json, *, token: str | None = None
    ) -> OpenDisputeResponse201:
        return await self._on(
            open_dispute,
            OpenDisputeResponse201,
            request_id,
            token=token,
            body=body(OpenDisputeBody, dispute),
        )

    async def comment(
        self, request_id: str, dispute_id: str, comment: str, *, token: str | None = None
    ) -> CommentOnDisputeResponse200:
        said = CommentOnDisputeBody.from_dict({"comment": comment})
        return await self._on(
            comment_on_dispute,
            CommentOnDisputeResponse200,
            request_id,
            dispute_id,
            token=token,
            body=said,
        )

    async def withdraw(
        self, request_id: str, dispute_id: str, *, token: str | None = None
    ) -> WithdrawDisputeResponse200:
        return await self._on(
            withdraw_dispute, WithdrawDisputeResponse200, request_id, dispute_id, token=token
        )


class Deliverables(_OfRequest):
    def list(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListDeliverablesResponse200DataItem]:
        return self._list_on(list_deliverables, ListDeliverablesResponse200, request_id, token)

    async def get(
        self, request_id: str, deliverable_id: str, *, token: str | None = None
    ) -> GetDeliverableResponse200:
        return await self._on(
            get_deliverable, GetDeliverableResponse200, request_id, deliverable_id, token=token
        )


class Jobs(_OfRequest):
    def list(
        self, request_id: str, *, token: str | None = None
    ) -> AsyncIterator[ListJobsResponse200DataItem]:
        return self._list_on(list_jobs, ListJobsResponse200, request_id, token)

    async def get(
        self, request_id: str, job_id: str, *, token: str | None = None
    ) -> GetJobResponse200:
        return await self._on(get_job, GetJobResponse200, request_id, job_id, token=token)


class Events(_Part):
    """The integration's events (the recovery feed, 30 days), newest first."""

    def list(
        self, *, type: str | None = None, request_id: str | None = None
    ) -> AsyncIterator[ListEventsResponse200DataItem]:
        return self._list(
            list_events,
            ListEventsResponse200,
            type_=given(type),
            request_id_query=given(request_id),
        )

    async def get(self, event_id: str) -> GetEventResponse200:
        return await self._call(get_event, GetEventResponse200, event_id)

    async def redeliver(self, event_id: str) -> RedeliverEventResponse202:
        """Sends the event again to every endpoint subscribed to it."""
        return await self._call(redeliver_event, RedeliverEventResponse202, event_id)


class WebhookEndpoints(_Part):
    """Where the integration's events are delivered (signed, Standard Webhooks)."""

    async def create(
        self, endpoint: CreateWebhookEndpointBody | Json
    ) -> CreateWebhookEndpointResponse201:
        """The answer holds the signing secret (``whsec_…``), shown only here."""
        return await self._call(
            create_webhook_endpoint,
            CreateWebhookEndpointResponse201,
            body=body(CreateWebhookEndpointBody, endpoint),
        )

    def list(self) -> AsyncIterator[ListWebhookEndpointsResponse200DataItem]:
        return self._list(list_webhook_endpoints, ListWebhookEndpointsResponse200)

    async def get(self, endpoint_id: str) -> GetWebhookEndpointResponse200:
        return await self._call(get_webhook_endpoint, GetWebhookEndpointResponse200, endpoint_id)

    async def update(
        self, endpoint_id: str, changes: UpdateWebhookEndpointBody | Json
    ) -> UpdateWebhookEndpointResponse200:
        return await self._call(
            update_webhook_endpoint,
            UpdateWebhookEndpointResponse200,
            endpoint_id,
            body=body(UpdateWebhookEndpointBody, changes),
        )

    async def delete(self, endpoint_id: str) -> DeleteWebhookEndpointResponse200:
        return await self._call(
            delete_webhook_endpoint, DeleteWebhookEndpointResponse200, endpoint_id
        )

    def attempts(self, endpoint_id: str) -> AsyncIterator[ListWebhookAttemptsResponse200DataItem]:
        """The delivery attempts to the endpoint, newest first."""
        return self._list(list_webhook_attempts, ListWebhookAttemptsResponse200, endpoint_id)

    async def rotate_secret(self, endpoint_id: str) -> RotateWebhookEndpointSecretResponse200:
        return await self._call(
            rotate_webhook_endpoint_secret, RotateWebhookEndpointSecretResponse200, endpoint_id
        )


class TestClocks(_Part):
    """Test mode (an ``hk_test_`` key): clocks that move the deadlines of the test requests made
    on them (``requests.create({..., "test_clock": clock.id})``) as if time had passed."""

    __test__ = False  # not a pytest class

    async def create(
        self, clock: CreateTestClockBody | Json | None = None
    ) -> CreateTestClockResponse201:
        made = given(None if clock is None else body(CreateTestClockBody, clock))
        return await self._call(create_test_clock, CreateTestClockResponse201, body=made)

    def list(self) -> AsyncIterator[ListTestClocksResponse200DataItem]:
        return self._list(list_test_clocks, ListTestClocksResponse200)

    async def get(self, clock_id: str) -> GetTestClockResponse200:
        return await self._call(get_test_clock, GetTestClockResponse200, clock_id)

    async def advance(self, clock_id: str, frozen_time: str) -> AdvanceTestClockResponse200:
        """Moves the clock to ``frozen_time``: every deadline it passes fires, in order."""
        moved = AdvanceTestClockBody.from_dict({"frozen_time": frozen_time})
        return await self._call(
            advance_test_clock, AdvanceTestClockResponse200, clock_id, body=moved
        )

    async def delete(self, clock_id: str) -> DeleteTestClockResponse200:
        return await self._call(delete_test_clock, DeleteTestClockResponse200, clock_id)


async def _read_and_raise(response: httpx.Response) -> None:
    if response.status_code >= 400:
        await response.aread()
        _core.raise_problem(response)


class AsyncHandoff:
    """The agent API, asynchronous. ``AsyncHandoff(api_key="hk_live_…", base_url=...)``, or
    ``AsyncHandoff()`` with HANDOFF_API_KEY and HANDOFF_URL set; ``async with AsyncHandoff(...)
    as client:`` closes its connections at the end."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: httpx.Timeout = _core.DEFAULT_TIMEOUT,
        user_agent: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        api_key, base = _core.settings(api_key, base_url)
        self.livemode = not api_key.startswith("hk_test_")
        self._http = httpx.AsyncClient(
            base_url=base,
            headers=_core.headers(api_key, user_agent),
            timeout=timeout,
            transport=AsyncRetryingTransport(retry or RetryPolicy(), transport),
            event_hooks={"response": [_read_and_raise]},
        )
        #: The generated client (``handoff._generated.api.*`` functions take it as ``client=``),
        #: on this client's connection, headers and retries.
        self.api = AuthenticatedClient(base_url=base, token=api_key).set_async_httpx_client(
            self._http
        )
        tokens = _core.Tokens()
        self.requests = Requests(self.api, tokens)
        self.proposals = Proposals(self.api, tokens)
        self.milestones = Milestones(self.api, tokens)
        self.disputes = Disputes(self.api, tokens)
        self.deliverables = Deliverables(self.api, tokens)
        self.jobs = Jobs(self.api, tokens)
        self.events = Events(self.api, tokens)
        self.webhook_endpoints = WebhookEndpoints(self.api, tokens)
        self.test_clocks = TestClocks(self.api, tokens)
        self._meta = _Part(self.api, tokens)

    async def me(self) -> GetMeResponse200:
        """The key's integration, scopes and mode."""
        return await self._meta._call(get_me, GetMeResponse200)

    async def capabilities(self) -> GetCapabilitiesResponse200:
        return await self._meta._call(get_capabilities, GetCapabilitiesResponse200)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()
