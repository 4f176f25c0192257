// The agent cancels its own request (`POST /v1/request/{id}/cancel`) while no provider is engaged:
// the request machine's `cancel`, with the customer as its actor from `submitted` and `routed`
// only. Real gateway, real services, real HTTP.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@handoff/testkit';
import { randomUUID } from 'node:crypto';
import { http, type Onboarded } from './support/http.ts';
import { useStack, type OwnedRequest, type ProviderAccount } from './support/stack.ts';

const stack = useStack('gw_customer_cancel');
let agent: Onboarded;
let plumber: ProviderAccount;

beforeAll(async () => {
  [agent, plumber] = await Promise.all([stack.agentOf(), stack.providerOf()]);
});

const cancel = (request: OwnedRequest, body?: unknown, headers: Record<string, string> = {}) =>
  stack.asCustomer(agent, request, '/cancel', {
    method: 'POST',
    ...(body === undefined ? {} : { body }),
    headers,
  });

/** The request's events in the agent's feed, once one says it is cancelled. */
async function cancelledEvent(request: OwnedRequest) {
  return eventually(async () => {
    const feed = await stack.asCustomer(agent, request, '/events?after=0&wait=0');
    const events = feed.body.data as {
      type: string;
      data: { object: { status?: string } };
    }[];
    return events.find(
      (event) => event.type === 'request.updated' && event.data.object.status === 'cancelled',
    );
  });
}

describe('POST /v1/request/{id}/cancel', () => {
  it('cancels a submitted request: the agent’s read, request.updated, and the reason for staff', async () => {
    const request = await stack.requestOf(agent, { category: undefined });
    const answer = await cancel(request, { reason: '  The customer fixed the tap herself.  ' });
    expect(answer).toMatchObject({
      status: 200,
      body: { object: 'request', id: request.id, status: 'cancelled', conversation: [] },
    });
    expect(answer.body).toHaveProperty('payments');
    expect(await cancelledEvent(request)).toMatchObject({
      data: { object: { id: request.id, status: 'cancelled' } },
    });
    const read = await stack.asCustomer(agent, request, '');
    expect(read.body.status).toBe('cancelled');
    const staff = await stack.asStaff(`/requests/${request.id}`);
    expect(staff.body.cancellation).toEqual({
      by: 'customer',
      reason: 'The customer fixed the tap herself.',
      at: expect.any(String),
    });
    const entry = await eventually(async () => {
      const log = await stack.asStaff('/audit-log?limit=100');
      const rows = log.body.data as { target_id: string; action: string }[];
      return rows.find((row) => row.target_id === request.id && row.action === 'request.cancelled');
    });
    expect(entry).toMatchObject({
      actor: `customer:${agent.integrationId}`,
      before: { status: 'submitted' },
      after: { status: 'cancelled', cancellation: { by: 'customer' } },
    });
  });

  it('cancels a routed request without a body; its open proposal is declined by the system', async () => {
    const request = await stack.routedRequest(agent, [plumber]);
    const proposalId = await stack.propose(plumber, request.id);
    expect(await cancel(request)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    await cancelledEvent(request);
    const proposal = await eventually(async () => {
      const read = await stack.asProvider(plumber, `/proposals/${proposalId}`);
      return read.body.status === 'declined' ? read.body : undefined;
    });
    expect(proposal).toMatchObject({ decline_reason: 'the request was cancelled' });
    const staff = await stack.asStaff(`/requests/${request.id}`);
    expect(staff.body.cancellation).toMatchObject({ by: 'customer', reason: null });
  });

  it('refuses once a provider is engaged: 409 invalid_state_transition, nothing changes', async () => {
    const { request } = await stack.engagement(agent, plumber);
    await eventually(async () => {
      const read = await stack.asCustomer(agent, request, '');
      return read.body.status === 'in_progress' ? true : undefined;
    });
    const refused = await cancel(request, { reason: 'Too slow.' });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        resource: 'request',
        current_state: 'in_progress',
        action: 'cancel',
        allowed_actions: [],
        detail: expect.stringContaining('the customer may only from submitted or routed'),
      },
    });
    const staff = await stack.asStaff(`/requests/${request.id}`);
    expect(staff.body).toMatchObject({ status: 'in_progress' });
    expect(staff.body).not.toHaveProperty('cancellation');
    // Staff still may.
    const byStaff = await stack.asStaff(`/requests/${request.id}`, {
      method: 'PATCH',
      body: { status: 'cancelled' },
    });
    expect(byStaff).toMatchObject({ status: 200, body: { status: 'cancelled' } });
  });

  it('refuses a request already cancelled: it allows no further moves', async () => {
    const request = await stack.requestOf(agent);
    expect((await cancel(request)).status).toBe(200);
    expect(await cancel(request)).toMatchObject({
      status: 409,
      body: {
        code: 'invalid_state_transition',
        current_state: 'cancelled',
        allowed_actions: [],
      },
    });
  });

  it('replays the answer to a repeated Idempotency-Key', async () => {
    const request = await stack.requestOf(agent);
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await cancel(request, { reason: 'No longer needed.' }, key);
    expect(first.status).toBe(200);
    const again = await cancel(request, { reason: 'No longer needed.' }, key);
    expect(again).toMatchObject({ status: 200, body: first.body });
  });

  it('checks the token, the owner and the scope like every agent route on a request', async () => {
    const request = await stack.requestOf(agent);
    expect(
      await http(stack.gateway, `/v1/request/${request.id}/cancel`, {
        token: agent.key,
        method: 'POST',
      }),
    ).toMatchObject({ status: 401, body: { code: 'request_token_missing' } });
    expect(await cancel({ ...request, token: 'hrt_wrong' })).toMatchObject({
      status: 403,
      body: { code: 'request_token_invalid' },
    });
    const other = await stack.agentOf();
    expect(await stack.asCustomer(other, request, '/cancel', { method: 'POST' })).toMatchObject({
      status: 404,
      body: { code: 'request_not_found' },
    });
    const readOnly = await stack.agentOf(['requests:read']);
    expect(await stack.asCustomer(readOnly, request, '/cancel', { method: 'POST' })).toMatchObject({
      status: 403,
      body: { code: 'insufficient_scope', required_scopes: ['requests:create'] },
    });
    expect(await cancel(request, { reason: 'x'.repeat(1_001) })).toMatchObject({
      status: 422,
      body: { code: 'validation_failed' },
    });
    expect(await cancel(request, { why: 'Unknown member.' })).toMatchObject({ status: 422 });
    // None of it moved the request.
    expect((await stack.asCustomer(agent, request, '')).body.status).toBe('submitted');
  });
});
