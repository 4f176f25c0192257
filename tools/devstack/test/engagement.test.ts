// One scripted engagement over HTTP only, against the whole stack as separate processes: from
// the handoff to a completed job, through a rejected milestone submission, an approval, a
// payment and a resolved dispute. A webhook receiver verifies every delivery with a Standard
// Webhooks library and checks that each request's events arrive numbered 1, 2, 3, … with no gap.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES, SCOPES, type EventEnvelope } from '@handoff/contracts';
import { eventually, startReceiver, type Receiver } from '@handoff/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { callJson, onboardAgent, type AgentKey } from '../src/gateway-client.ts';
import { lastServiceLines } from './support/run-stack.ts';
import { startStack, waitUntilReady, type Stack } from '../src/stack.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-engagement-'));
/** The services' last lines, shown when the stack or the test fails. */
const { events, tail } = lastServiceLines();

let stack: Stack;
let base: string;
let staff: string;
let agent: AgentKey;
let receiver: Receiver;
let receiverUrl: string;
let verifier: Webhook | undefined;
/** Verified deliveries, in arrival order; a redelivery of an event id appears again. */
const received: EventEnvelope[] = [];

beforeAll(async () => {
  receiver = await startReceiver(
    (delivery) => {
      if (!verifier) throw new Error('no secret yet');
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
          name,
          String(delivery.headers[name] ?? ''),
        ]),
      );
      received.push(verifier.verify(delivery.body, headers) as EventEnvelope);
    },
    { failedStatus: 400 },
  );
  receiverUrl = `${receiver.url}/hooks`;

  stack = await startStack({
    dataDir,
    port: 0,
    logLevel: 'warn',
    env: { WEBHOOK_RETRY_SCHEDULE: '1,1,2,5', PAYMENT_PROVIDER: 'manual' },
    events,
  });
  base = stack.state().gateway_url;
  if (!(await waitUntilReady(base, 60_000))) throw new Error('the stack did not become ready');
  staff = await stack.staffToken();
  agent = await onboardAgent({
    gatewayUrl: base,
    staffToken: staff,
    scopes: SCOPES,
    appName: 'Engagement test',
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Body = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One call as the named party; throws with the answer when the status is not `expect`. */
async function as(
  who: { bearer: string; token?: string },
  method: Method,
  path: string,
  expect: number,
  body?: unknown,
): Promise<Body> {
  const headers: Record<string, string> = { Authorization: `Bearer ${who.bearer}` };
  if (who.token) headers['X-Service-Request-Token'] = who.token;
  return callJson(
    `${method} ${path}`,
    `${base}${path}`,
    { method, headers, body, expect },
    undefined,
  );
}

const str = (body: Body, field: string) => {
  const value = body[field];
  if (typeof value !== 'string') throw new Error(`no ${field} in ${JSON.stringify(body)}`);
  return value;
};
const list = (body: Body) => body.data as Body[];

describe('a whole engagement over HTTP', () => {
  it('goes from the handoff to a completed job, and every event kind reaches the receiver in order', async () => {
    try {
      await engagement();
    } catch (error) {
      throw new Error(`${String(error)}\nlast service lines:\n${tail()}`, {
        cause: error,
      });
    }
  }, 240_000);
});

async function engagement() {
  const staffer = { bearer: staff };
  const customerAgent = { bearer: agent.api_key };

  // The agent registers a receiver for every event kind.
  const endpoint = await as(customerAgent, 'POST', '/v1/webhook-endpoints', 201, {
    url: receiverUrl,
    description: 'engagement test receiver',
  });
  verifier = new Webhook(str(endpoint, 'secret'));

  // The handoff.
  const created = await as(customerAgent, 'POST', '/v1/ai-to-human-request', 201, {
    message: 'We need a landing page for our bakery, with an order form.',
    category: 'web-development',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    contact_permission: true,
    marketplace_opt_in: true,
    budget_min: 500,
    budget_max: 1500,
  });
  const requestId = str(created, 'id');
  const customer = { bearer: agent.api_key, token: str(created, 'request_token') };
  const r = `/v1/request/${requestId}`;

  // Staff onboard two providers and route the request to both.
  const providers: { id: string; bearer: string }[] = [];
  for (const name of ['Lovelace Studio', 'Babbage Web']) {
    const provider = await as(staffer, 'POST', '/v1/staff/providers', 201, {
      name,
      email: `${name.split(' ')[0]?.toLowerCase() ?? 'p'}@providers.example.com`,
      categories: ['web-development'],
    });
    const key = await as(
      staffer,
      'POST',
      `/v1/staff/providers/${str(provider, 'id')}/keys`,
      201,
      {},
    );
    providers.push({ id: str(provider, 'id'), bearer: str(key, 'api_key') });
  }
  const [chosen, other] = providers as [(typeof providers)[0], (typeof providers)[0]];
  await as(staffer, 'PATCH', `/v1/staff/requests/${requestId}`, 200, {
    status: 'routed',
    routing: { mode: 'direct', provider_ids: providers.map((p) => p.id) },
  });

  // Both see it, with the customer's contact (permission given); conversation both ways.
  const seen = await as(chosen, 'GET', `/v1/provider/requests/${requestId}`, 200);
  expect(seen).toMatchObject({ id: requestId, relation: 'routed' });
  expect((seen.customer as Body).email).toBe('grace@example.com');
  await as(customer, 'POST', `${r}/message`, 201, { message: 'Any questions, just ask.' });
  await as(chosen, 'POST', `/v1/provider/requests/${requestId}/messages`, 201, {
    message: 'Do you already have a domain name?',
  });

  // Proposals: two arrive, the customer accepts one; the other is declined.
  const mine = await as(chosen, 'POST', `/v1/provider/requests/${requestId}/proposals`, 201, {
    message: 'A one-page site with an order form, in two weeks.',
    amount: 1200,
    currency: 'USD',
    estimated_days: 14,
    milestones: [{ title: 'Design and build the page', amount: 1200, due_in_days: 14 }],
  });
  const theirs = await as(other, 'POST', `/v1/provider/requests/${requestId}/proposals`, 201, {
    message: 'We can do it for less.',
    amount: 900,
  });
  const proposals = list(await as(customer, 'GET', `${r}/proposals`, 200));
  expect(proposals.map((p) => p.id).sort()).toEqual([mine.id, theirs.id].sort());
  const accepted = await as(customer, 'POST', `${r}/proposals/${str(mine, 'id')}/accept`, 200);
  const job = accepted.job as Body;
  expect(job).toMatchObject({ status: 'active', provider_id: chosen.id });
  expect(await as(customer, 'GET', `${r}/proposals/${str(theirs, 'id')}`, 200)).toMatchObject({
    status: 'declined',
  });
  await eventually(async () => {
    const read = await as(customer, 'GET', r, 200);
    expect(read.status).toBe('in_progress');
    return read;
  });

  // The planned milestone: progress, a deliverable, submission, changes requested.
  const milestones = list(await as(customer, 'GET', `${r}/milestones`, 200));
  expect(milestones).toHaveLength(1);
  const milestoneId = str(milestones[0] as Body, 'id');
  const m = `/v1/provider/milestones/${milestoneId}`;
  await as(chosen, 'POST', `${m}/progress`, 200, { progress: 60, note: 'Layout done.' });
  await as(chosen, 'POST', `${m}/deliverables`, 201, {
    title: 'First version',
    url: 'https://preview.example.com/bakery-v1',
  });
  await as(chosen, 'POST', `${m}/submit`, 200, { note: 'Ready for review.' });
  const refused = await as(
    customer,
    'POST',
    `${r}/milestones/${milestoneId}/request-changes`,
    200,
    {
      reason: 'The order form needs a pickup time.',
    },
  );
  expect(refused).toMatchObject({ status: 'changes_requested' });
  // An illegal move is refused with the moves the caller may make named (the customer has none
  // while the provider reworks the milestone; `submit` is the provider's), and changes nothing.
  const illegal = await fetch(`${base}${r}/milestones/${milestoneId}/approve`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${agent.api_key}`,
      'X-Service-Request-Token': customer.token,
    },
  });
  expect(illegal.status).toBe(409);
  expect(await illegal.json()).toMatchObject({
    code: 'invalid_state_transition',
    current_state: 'changes_requested',
    allowed_actions: [],
  });

  // Second round: a new deliverable, resubmission, approval.
  await as(chosen, 'POST', `${m}/deliverables`, 201, {
    title: 'Second version, with pickup times',
    url: 'https://preview.example.com/bakery-v2',
  });
  await as(chosen, 'POST', `${m}/submit`, 200, {});
  const approved = await as(customer, 'POST', `${r}/milestones/${milestoneId}/approve`, 200);
  expect(approved).toMatchObject({ status: 'approved', approved_by: 'customer', revision: 2 });
  const deliverables = list(await as(customer, 'GET', `${r}/deliverables`, 200));
  expect(deliverables.map((d) => d.status).sort()).toEqual(['accepted', 'revision_requested']);

  // Money moves only through a payment request that staff approve, and a confirmed payment.
  const prq = await as(customer, 'POST', `${r}/payment-request`, 201, {
    amount: 1200,
    currency: 'USD',
    description: 'Landing page, milestone 1',
  });
  await as(staffer, 'POST', `/v1/staff/payment-requests/${str(prq, 'id')}/approve`, 200);
  const payment = await eventually(async () => {
    const payments = list(
      await as(staffer, 'GET', `/v1/staff/payments?request_id=${requestId}`, 200),
    );
    expect(payments).toHaveLength(1);
    return payments[0] as Body;
  });
  expect(payment).toMatchObject({ status: 'pending', provider: 'manual', amount: 1200 });
  await as(staffer, 'POST', `/v1/staff/payments/${str(payment, 'id')}/confirm`, 200, {
    reference: 'bank transfer 2026-11-21',
  });

  // A refund case, answered by the provider and resolved by staff.
  const dispute = await as(customer, 'POST', `${r}/disputes`, 201, {
    kind: 'refund',
    reason: 'The order form sends no confirmation e-mail.',
    amount: 200,
    currency: 'USD',
  });
  const d = str(dispute, 'id');
  await as(chosen, 'POST', `/v1/provider/disputes/${d}/comments`, 200, {
    message: 'Confirmation e-mails were not in the proposal, but we can add them.',
  });
  // The job cannot complete while the case is open.
  const early = await fetch(`${base}/v1/provider/jobs/${str(job, 'id')}/complete`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${chosen.bearer}` },
  });
  expect(early.status).toBe(409);
  expect(await early.json()).toMatchObject({ code: 'job_has_open_work' });
  const resolved = await as(staffer, 'POST', `/v1/staff/disputes/${d}/resolve`, 200, {
    outcome: 'split',
    reason: 'Half of the e-mail work was reasonably expected.',
    customer_share_percent: 50,
  });
  expect(resolved).toMatchObject({ status: 'resolved' });

  // The job completes, and so does the request.
  const completed = await as(chosen, 'POST', `/v1/provider/jobs/${str(job, 'id')}/complete`, 200);
  expect(completed).toMatchObject({ status: 'completed' });
  await eventually(async () => {
    const read = await as(customer, 'GET', r, 200);
    expect(read).toMatchObject({ status: 'completed' });
    return read;
  });

  // The receiver: every kind of spec §6, verified, and each request's events numbered 1..N.
  await eventually(
    () => {
      const kinds = new Set(received.map((event) => event.type));
      expect([...EVENT_TYPES].filter((kind) => !kinds.has(kind))).toEqual([]);
      const mine = received.filter((event) => event.data.request_id === requestId);
      const sequences = [...new Set(mine.map((event) => event.data.sequence))].sort(
        (a, b) => a - b,
      );
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
      // The last event of the request is the request's own completion.
      const byId = new Map(mine.map((event) => [event.data.sequence, event]));
      expect(byId.get(sequences.length)?.type).toBe('request.updated');
      return sequences.length;
    },
    { timeoutMs: 60_000 },
  );
  expect(receiver.failures).toEqual([]);

  const ordered = [
    ...new Map(
      received
        .filter((event) => event.data.request_id === requestId)
        .sort((a, b) => a.data.sequence - b.data.sequence)
        .map((event) => [event.id, event]),
    ).values(),
  ];
  const first = (type: string) => ordered.findIndex((event) => event.type === type);
  // Causal order shows in the sequence: each of these happened after the one before it.
  const story = [
    'request.created',
    'proposal.received',
    'proposal.accepted',
    'milestone.submitted',
    'milestone.approved',
    'payment.completed',
    'dispute.created',
    'job.completed',
  ];
  const positions = story.map(first);
  expect(positions.every((position) => position >= 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  console.log(
    `engagement: ${ordered.length} events for ${requestId}, kinds seen: ${[...new Set(received.map((e) => e.type))].sort().join(', ')}`,
  );
}
