import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  EventEnvelope,
  SCOPES,
  SIMULATED_PROVIDER_ID,
  WebhookEndpointWithSecret,
  type TestScenario,
} from '@handoff/contracts';
import {
  eventually,
  startReceiver,
  TEST_MODE_OPENING as OPENING,
  TEST_MODE_PAID as PAID,
  TEST_MODE_WORK as WORK,
  type Receiver,
} from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { http, type Answer } from './support/http.ts';
import { CUSTOMER, startStack, type ProviderAccount, type Stack } from './support/stack.ts';

// Test mode end to end (docs/test-mode.md): a test key's request runs its scenario against the
// simulated provider, the agent plays its part through the API, and the webhook receiver gets
// exactly the documented events, signed (Standard Webhooks) and numbered 1, 2, 3… A test request
// never reaches a real provider's offers or the payment processor (Stripe here).

/** Each event as `type` or `type:status` (the object's status, where it has one). */

interface Delivery {
  body: string;
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
  envelope: EventEnvelope;
}

let stack: Stack;
let hooks: Receiver;
let stripe: Receiver;
let stripeCalls = 0;
const deliveries: Delivery[] = [];
let testKey: string;
let secret: string;
let realProvider: ProviderAccount;
const testRequests: string[] = [];

beforeAll(async () => {
  // Stands in for Stripe's API: payments is configured with Stripe, and must never call it.
  stripe = await startReceiver(() => {
    stripeCalls += 1;
  });
  hooks = await startReceiver((received) => {
    const header = (name: string) => String(received.headers[name] ?? '');
    deliveries.push({
      body: received.body,
      headers: {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      },
      envelope: EventEnvelope.parse(JSON.parse(received.body)),
    });
  });
  stack = await startStack('gw_test_scenarios', {
    oneDatabase: true,
    env: {
      'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      payments: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: `sk_test_${randomBytes(12).toString('hex')}`,
        STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64url')}`,
        STRIPE_API_URL: stripe.url,
      },
    },
  });
  const agent = await stack.agentOf([...SCOPES]);
  const issued = await stack.asStaff(`/integrations/${agent.integrationId}/keys`, {
    body: { livemode: false },
  });
  expect(issued).toMatchObject({ status: 201, body: { livemode: false } });
  testKey = String(issued.body.api_key);
  // A real provider in the requests' category, with room: it must never be offered one of them.
  realProvider = await stack.providerOf(['home-services'], { capacity: 5 });
  const endpoint = await http(stack.gateway, '/v1/webhook-endpoints', {
    token: testKey,
    body: { url: `${hooks.url}/hooks` },
  });
  expect(endpoint.status).toBe(201);
  secret = WebhookEndpointWithSecret.parse(endpoint.body).secret;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await hooks?.close();
  await stripe?.close();
});

interface TestRequest {
  id: string;
  token: string;
}

async function testRequest(scenario: TestScenario): Promise<TestRequest> {
  const created = await http(stack.gateway, '/v1/ai-to-human-request', {
    token: testKey,
    body: { ...CUSTOMER, test_scenario: scenario },
  });
  expect(created).toMatchObject({
    status: 201,
    body: { livemode: false, test_scenario: scenario },
  });
  const request = { id: String(created.body.id), token: String(created.body.request_token) };
  testRequests.push(request.id);
  return request;
}

/** The agent's call on its test request (the test key and the request token). */
async function agentCall(request: TestRequest, path: string, body: unknown = {}): Promise<Answer> {
  const answer = await http(stack.gateway, `/v1/request/${request.id}${path}`, {
    token: testKey,
    headers: { 'X-Service-Request-Token': request.token },
    body,
  });
  if (answer.status >= 300) {
    throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

/** The deliveries of the request's events, one per event, in `sequence` order. */
function deliveredOf(requestId: string): Delivery[] {
  const byEvent = new Map<string, Delivery>();
  for (const delivery of deliveries) {
    if (delivery.envelope.data.request_id === requestId) {
      byEvent.set(delivery.envelope.id, delivery);
    }
  }
  return [...byEvent.values()].sort((a, b) => a.envelope.data.sequence - b.envelope.data.sequence);
}

const described = (delivered: Delivery[]) =>
  delivered.map(({ envelope }) => {
    const status = envelope.data.object.status;
    return typeof status === 'string' ? `${envelope.type}:${status}` : envelope.type;
  });

/**
 * Waits until the receiver has had exactly `expected` for the request (nothing more a moment
 * later), each delivery verified and test mode's, numbered from 1 without a gap.
 */
async function expectDelivered(request: TestRequest, expected: string[]): Promise<Delivery[]> {
  await eventually(() => (deliveredOf(request.id).length >= expected.length ? true : undefined), {
    timeoutMs: 30_000,
    what: `${expected.length} deliveries of ${request.id}`,
  });
  // Long enough for a delivery that should not come to have come.
  await new Promise((resolve) => setTimeout(resolve, 750));
  const delivered = deliveredOf(request.id);
  expect(described(delivered)).toEqual(expected);
  expect(delivered.map(({ envelope }) => envelope.data.sequence)).toEqual(
    expected.map((_, index) => index + 1),
  );
  for (const delivery of delivered) {
    expect(new Webhook(secret).verify(delivery.body, delivery.headers)).toEqual(
      JSON.parse(delivery.body),
    );
    expect(delivery.envelope.livemode).toBe(false);
  }
  return delivered;
}

/** The id of the object of the request's newest delivered event of `type`. */
function latestId(request: TestRequest, type: string): string {
  const found = deliveredOf(request.id)
    .filter(({ envelope }) => envelope.type === type)
    .at(-1);
  if (!found) throw new Error(`no ${type} delivered for ${request.id}`);
  return String(found.envelope.data.object.id);
}

const acceptProposal = (request: TestRequest) =>
  agentCall(request, `/proposals/${latestId(request, 'proposal.received')}/accept`);
const approve = (request: TestRequest) =>
  agentCall(request, `/milestones/${latestId(request, 'milestone.submitted')}/approve`);

describe('test mode scenarios at the webhook receiver', () => {
  it('happy_path', async () => {
    const request = await testRequest('happy_path');
    await expectDelivered(request, OPENING);
    await acceptProposal(request);
    await expectDelivered(request, [...OPENING, ...WORK]);
    await approve(request);
    await expectDelivered(request, [...OPENING, ...WORK, 'milestone.approved:approved', ...PAID]);
  }, 90_000);

  it('asks_question', async () => {
    const request = await testRequest('asks_question');
    const asked = OPENING.slice(0, 4);
    await expectDelivered(request, asked);
    await agentCall(request, '/message', { message: 'Thursday morning suits us.' });
    await expectDelivered(request, [...asked, 'message.created', 'proposal.received:submitted']);
  }, 90_000);

  it('declines', async () => {
    const request = await testRequest('declines');
    await expectDelivered(request, [
      'request.created:submitted',
      'request.updated:routed',
      'request.updated:submitted',
    ]);
    const staffView = await eventually(async () => {
      const read = await stack.asStaff(`/requests/${request.id}`);
      const routing = read.body.automatic_routing as { state: string } | undefined;
      return routing?.state === 'queued' ? read.body : undefined;
    });
    expect(staffView).toMatchObject({
      automatic_routing: { queue_reason: 'offers_exhausted' },
    });
  }, 90_000);

  it('misses_deadline', async () => {
    const request = await testRequest('misses_deadline');
    await expectDelivered(request, OPENING);
    await acceptProposal(request);
    await expectDelivered(request, [...OPENING, ...WORK.slice(0, 3)]);
  }, 90_000);

  it('requests_changes', async () => {
    const request = await testRequest('requests_changes');
    await expectDelivered(request, OPENING);
    await acceptProposal(request);
    await expectDelivered(request, [...OPENING, ...WORK]);
    await agentCall(
      request,
      `/milestones/${latestId(request, 'milestone.submitted')}/request-changes`,
      {
        reason: 'The draft misses the last step.',
      },
    );
    const revised = [
      ...OPENING,
      ...WORK,
      'milestone.updated:changes_requested',
      'deliverable.created:submitted',
      'milestone.submitted:submitted',
    ];
    await expectDelivered(request, revised);
    await approve(request);
    await expectDelivered(request, [...revised, 'milestone.approved:approved', ...PAID]);
  }, 90_000);

  it('disputes', async () => {
    const request = await testRequest('disputes');
    await expectDelivered(request, OPENING);
    await acceptProposal(request);
    await expectDelivered(request, [...OPENING, ...WORK]);
    await agentCall(request, '/disputes', {
      kind: 'dispute',
      reason: 'Only part of the work was delivered.',
      milestone_id: latestId(request, 'milestone.submitted'),
    });
    const answered = [...OPENING, ...WORK, 'dispute.created:open', 'dispute.updated:open'];
    const delivered = await expectDelivered(request, answered);
    expect(delivered.at(-1)?.envelope.data.object).toMatchObject({
      comments: [expect.objectContaining({ author_role: 'provider' })],
    });
    await agentCall(request, `/disputes/${latestId(request, 'dispute.created')}/withdraw`);
    await approve(request);
    await expectDelivered(request, [
      ...answered,
      'dispute.updated:withdrawn',
      'milestone.approved:approved',
      ...PAID,
    ]);
  }, 90_000);

  it('payment_fails', async () => {
    const request = await testRequest('payment_fails');
    await expectDelivered(request, OPENING);
    await acceptProposal(request);
    await expectDelivered(request, [...OPENING, ...WORK]);
    await approve(request);
    const failed = [
      ...OPENING,
      ...WORK,
      'milestone.approved:approved',
      'payment.requested:pending_approval',
      'payment.requested:approved',
      'payment.failed:failed',
      'message.created',
    ];
    await expectDelivered(request, failed);
    await agentCall(request, '/payment-request', {
      amount: 500,
      currency: 'USD',
      description: 'The whole job, again.',
    });
    await expectDelivered(request, [...failed, ...PAID]);
  }, 90_000);
});

describe('what a test request never reaches', () => {
  it('no real provider: only the simulated provider was offered any of them', async () => {
    expect(testRequests).toHaveLength(7);
    const inbox = await stack.asProvider(realProvider, '/requests');
    expect(inbox).toMatchObject({ status: 200, body: { data: [] } });
    for (const id of testRequests) {
      const read = await stack.asStaff(`/requests/${id}`);
      const offers = (read.body.automatic_routing as { offers: { provider_id: string }[] }).offers;
      expect(offers.map((offer) => offer.provider_id)).toEqual([SIMULATED_PROVIDER_ID]);
    }
  });

  it('no payment processor: Stripe is configured and was never called', async () => {
    const payments = await stack.asStaff('/payments?limit=100');
    const ofTests = (payments.body.data as { request_id: string; provider: string }[]).filter(
      (payment) => testRequests.includes(payment.request_id),
    );
    // happy_path, requests_changes, disputes: one each; payment_fails: the failed one and the next.
    expect(ofTests).toHaveLength(5);
    expect(new Set(ofTests.map((payment) => payment.provider))).toEqual(new Set(['test']));
    expect(stripeCalls).toBe(0);
  });
});
