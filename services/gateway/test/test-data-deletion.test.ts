import { beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES, type BackendService } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { http, type Onboarded } from './support/http.ts';
import { CUSTOMER, useStack, type OwnedRequest } from './support/stack.ts';

// Staff's bulk deletion of an integration's test data: everything its test twin made goes, in
// every service; every live object of the same integration stays; the twin and its keys stay.

/** Every service that holds an integration's data (the simulated provider is left out: nothing
 * acts on the test requests while they are deleted). */
const SERVICES: BackendService[] = [
  'intake',
  'conversation',
  'payments',
  'milestones',
  'webhook-dispatcher',
  'notifications',
];

const stack = useStack('gw_test_data', {
  oneDatabase: true,
  services: SERVICES,
  env: { 'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } },
});

/** One mode's key and what it made: requests, each with a message, a payment request, a hook. */
interface Made {
  agent: Onboarded;
  requests: OwnedRequest[];
  messageIds: string[];
  fileIds: string[];
  paymentRequestId: string;
  endpointId: string;
}

let live: Made;
let test: Made;
let twinId: string;

const asAgent = (made: Made, request: OwnedRequest, path: string, body?: unknown) =>
  stack.asCustomer(made.agent, request, path, body === undefined ? {} : { body });

async function make(agent: Onboarded, count: number): Promise<Made> {
  const requests: OwnedRequest[] = [];
  for (let i = 0; i < count; i += 1) requests.push(await stack.requestOf(agent));
  const made = {
    agent,
    requests,
    messageIds: [] as string[],
    fileIds: [] as string[],
    paymentRequestId: '',
    endpointId: '',
  };
  for (const request of requests) {
    // A file with each message: a request's data includes its files and their bytes.
    const uploaded = await fetch(
      `${stack.gateway.url}/v1/request/${request.id}/files?filename=a.txt`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${agent.key}`,
          'X-Service-Request-Token': request.token,
          'Content-Type': 'text/plain',
        },
        body: 'the customer’s notes\n'.repeat(20_000),
      },
    );
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { id: string };
    made.fileIds.push(file.id);
    const sent = await asAgent(made, request, '/message', {
      message: 'Any update?',
      attachments: [file.id],
    });
    expect(sent.status).toBe(201);
    made.messageIds.push(String(sent.body.id));
  }
  const [first] = requests;
  if (!first) throw new Error('no request made');
  const proposed = await asAgent(made, first, '/payment-request', {
    amount: 120,
    currency: 'USD',
    description: 'Deposit',
  });
  expect(proposed.status).toBe(201);
  made.paymentRequestId = String(proposed.body.id);
  const endpoint = await http(stack.gateway, '/v1/webhook-endpoints', {
    token: agent.key,
    body: { url: 'http://127.0.0.1:9/hooks' },
  });
  expect(endpoint.status).toBe(201);
  made.endpointId = String(endpoint.body.id);
  return made;
}

/** The integration's events in the feed (the dispatcher stores them as they are published). */
const feed = async (made: Made) => {
  const answer = await http(stack.gateway, '/v1/events?limit=100', { token: made.agent.key });
  expect(answer.status).toBe(200);
  return answer.body.data as { id: string; type: string; data: { request_id: string } }[];
};

/** Raw counts in the owning services' collections: what no API read can see once it is gone. */
async function stored(requestIds: string[], integrationId: string, fileIds: string[] = []) {
  const db = (service: BackendService) => stack.backend(service).store.db;
  const byRequest = (service: BackendService, collection: string) =>
    db(service)
      .collection(collection)
      .countDocuments({ request_id: { $in: requestIds } });
  return {
    requests: await db('intake')
      .collection<{ _id: string }>('requests')
      .countDocuments({ _id: { $in: requestIds } }),
    messages: await byRequest('conversation', 'messages'),
    message_files: await db('conversation')
      .collection('attachments.files')
      .countDocuments({ 'metadata.request_id': { $in: requestIds } }),
    message_file_chunks: await db('conversation')
      .collection('attachments.chunks')
      .countDocuments({ files_id: { $in: fileIds } }),
    payment_requests: await byRequest('payments', 'payment_requests'),
    webhook_events: await db('webhook-dispatcher')
      .collection('webhook_events')
      .countDocuments({ integration_id: integrationId }),
    webhook_endpoints: await db('webhook-dispatcher')
      .collection('webhook_endpoints')
      .countDocuments({ integration_id: integrationId }),
  };
}

/**
 * Waits until every request's first events (created, its message) are in the feed and nothing
 * more arrives for half a second (the rules' offer comes after the creation): an event stored
 * after the deletion would be data left behind.
 */
async function settled(made: Made) {
  let seen = -1;
  await eventually(
    async () => {
      const events = await feed(made);
      for (const request of made.requests) {
        const types = events.filter((e) => e.data.request_id === request.id).map((e) => e.type);
        expect(types).toEqual(expect.arrayContaining(['request.created', 'message.created']));
      }
      const count = events.length;
      const stable = count === seen;
      seen = count;
      if (!stable) throw new Error('the feed is still growing');
      return true;
    },
    { intervalMs: 500, timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  const agent = await stack.agentOf([...SCOPES]);
  const issued = await stack.asStaff(`/integrations/${agent.integrationId}/keys`, {
    body: { livemode: false },
  });
  expect(issued).toMatchObject({ status: 201, body: { livemode: false } });
  twinId = String(issued.body.integration_id);
  live = await make(agent, 1);
  test = await make({ ...agent, key: String(issued.body.api_key), integrationId: twinId }, 2);
  for (const made of [live, test]) await settled(made);
});

describe('DELETE /v1/staff/integrations/{id}/test-data', () => {
  it('deletes every test object in every service and answers what it deleted', async () => {
    const before = await stored(
      test.requests.map((request) => request.id),
      twinId,
      test.fileIds,
    );
    expect(before).toMatchObject({
      requests: 2,
      messages: 2,
      message_files: 2,
      message_file_chunks: 4,
      payment_requests: 1,
    });

    const deleted = await stack.asStaff(`/integrations/${live.agent.integrationId}/test-data`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      object: 'test_data_deletion',
      integration_id: live.agent.integrationId,
      test_integration_id: twinId,
      requests_deleted: 2,
      has_more: false,
      deleted: {
        messages: 2,
        message_files: 2,
        deliverable_files: 0,
        payment_requests: 1,
        payments: 0,
        proposals: 0,
        webhook_endpoints: 1,
        webhook_events: before.webhook_events,
      },
    });
    expect(before.webhook_events).toBeGreaterThanOrEqual(2);

    expect(
      await stored(
        test.requests.map((request) => request.id),
        twinId,
        test.fileIds,
      ),
    ).toEqual({
      requests: 0,
      messages: 0,
      message_files: 0,
      message_file_chunks: 0,
      payment_requests: 0,
      webhook_events: 0,
      webhook_endpoints: 0,
    });
    for (const request of test.requests) {
      expect((await asAgent(test, request, '')).status).toBe(404);
      expect(await stack.asStaff(`/requests/${request.id}`)).toMatchObject({
        status: 404,
        body: { code: 'request_not_found' },
      });
    }
    expect(
      await stack.asStaff(`/payment-requests/${test.paymentRequestId}/approve`, {
        method: 'POST',
      }),
    ).toMatchObject({ status: 404, body: { code: 'payment_request_not_found' } });
    expect(await feed(test)).toEqual([]);
    const hooks = await http(stack.gateway, '/v1/webhook-endpoints', { token: test.agent.key });
    expect(hooks).toMatchObject({ status: 200, body: { data: [] } });
  });

  it('leaves every live object of the integration as it was', async () => {
    const [request] = live.requests;
    if (!request) throw new Error('no live request');
    expect(await stored([request.id], live.agent.integrationId, live.fileIds)).toMatchObject({
      requests: 1,
      messages: 1,
      message_files: 1,
      message_file_chunks: 2,
      payment_requests: 1,
      webhook_endpoints: 1,
    });
    expect((await asAgent(live, request, '')).status).toBe(200);
    const messages = await asAgent(live, request, '/messages');
    expect((messages.body.data as { id: string }[]).map((m) => m.id)).toContain(live.messageIds[0]);
    const payments = await asAgent(live, request, '/payment-requests');
    expect((payments.body.data as { id: string }[]).map((p) => p.id)).toEqual([
      live.paymentRequestId,
    ]);
    const hooks = await http(stack.gateway, '/v1/webhook-endpoints', { token: live.agent.key });
    expect((hooks.body.data as { id: string }[]).map((h) => h.id)).toEqual([live.endpointId]);
    expect((await feed(live)).map((event) => event.data.request_id)).toContain(request.id);
    expect((await stack.asStaff(`/requests/${request.id}`)).status).toBe(200);
  });

  it('keeps the twin and its key working: new test data can be made at once', async () => {
    const created = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: test.agent.key,
      body: CUSTOMER,
    });
    expect(created).toMatchObject({ status: 201, body: { livemode: false } });
    const integration = await stack.asStaff(`/integrations/${live.agent.integrationId}`);
    expect(integration.body).toMatchObject({ test_integration_id: twinId });
    // Called again, on the twin's id this time: what was made since goes too, then nothing.
    const again = await stack.asStaff(`/integrations/${twinId}/test-data`, { method: 'DELETE' });
    expect(again.body).toMatchObject({
      integration_id: live.agent.integrationId,
      test_integration_id: twinId,
      requests_deleted: 1,
      has_more: false,
    });
    const empty = await stack.asStaff(`/integrations/${twinId}/test-data`, { method: 'DELETE' });
    expect(empty).toMatchObject({
      status: 200,
      body: { requests_deleted: 0, has_more: false },
    });
    expect(Object.values(empty.body.deleted as Record<string, number>)).toEqual(
      Object.values(empty.body.deleted as Record<string, number>).map(() => 0),
    );
  });

  it('is audited, as the staff member who asked, on the live integration', async () => {
    await eventually(async () => {
      const log = await stack.asStaff('/audit-log?limit=100');
      const entries = (log.body.data as { action: string; target_id: string }[]).filter(
        (entry) => entry.target_id === live.agent.integrationId,
      );
      expect(entries.filter((entry) => entry.action === 'test_data.deleted')).toHaveLength(3);
      expect(entries).toContainEqual(
        expect.objectContaining({
          action: 'test_data.deleted',
          actor: 'ops@handoff.test',
          target_type: 'integration',
          after: expect.objectContaining({ requests_deleted: 2, test_integration_id: twinId }),
        }),
      );
      return true;
    });
  });

  it('answers zero counts for an integration without a test twin, 404 for an unknown one', async () => {
    const other = await stack.agentOf();
    const none = await stack.asStaff(`/integrations/${other.integrationId}/test-data`, {
      method: 'DELETE',
    });
    expect(none).toMatchObject({
      status: 200,
      body: {
        integration_id: other.integrationId,
        test_integration_id: null,
        requests_deleted: 0,
        has_more: false,
      },
    });
    await stack.staffRefused(404, 'integration_not_found', [
      ['/integrations/int_00000000000000000000000000/test-data', { method: 'DELETE' }],
    ]);
    const asAgentKey = await http(stack.gateway, `/v1/staff/integrations/${twinId}/test-data`, {
      method: 'DELETE',
      token: live.agent.key,
    });
    expect(asAgentKey.status).toBe(401);
  });
});
