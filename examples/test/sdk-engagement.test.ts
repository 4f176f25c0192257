// A whole engagement through @handoff/sdk only, against the stack as `npm start` runs it: the
// agent client for the customer's side, the provider and staff clients for theirs. Onboarding
// the agent reuses the devstack's HTTP helper, as every stack test does.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import { eventually, startReceiver, type Receiver } from '@handoff/testkit';
import {
  createHandoffClient,
  createProviderClient,
  createStaffClient,
  HandoffError,
  toArray,
  unwrap,
  verifyWebhook,
  type Event,
  type HandoffClient,
} from '@handoff/sdk';
import { BAKERY_REQUEST } from '../agent.ts';
import { startLocalStack, STACK_SETUP_MS, type LocalStack } from './support.ts';

let stack: LocalStack;
let base: string;
let staffToken: string;
let agent: HandoffClient;
/** A webhook receiver on loopback that verifies every delivery with the SDK. */
let receiver: Receiver;
let secret = '';
const verified: Event[] = [];

beforeAll(async () => {
  receiver = await startReceiver(
    (delivery) => {
      verified.push(verifyWebhook(secret, delivery.body, delivery.headers));
    },
    { failedStatus: 400 },
  );
  stack = await startLocalStack('sdk');
  base = stack.base;
  staffToken = stack.staffToken;
  agent = createHandoffClient({
    baseUrl: base,
    apiKey: await stack.agentKey(SCOPES, 'SDK engagement test'),
  });
}, STACK_SETUP_MS);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe('@handoff/sdk against the local stack', () => {
  it('drives a whole engagement, from the handoff to a completed request', async () => {
    await stack.withServiceLines(engagement);
  }, 240_000);

  it('throws typed problems with the code and the field errors', async () => {
    const invalid = await agent.requests
      .create({ message: '', budget_min: -1 })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(HandoffError);
    const problem = invalid as HandoffError;
    expect(problem.status).toBe(422);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors.map((error) => error.pointer)).toEqual(
      expect.arrayContaining(['/message', '/budget_min']),
    );
    expect(problem.requestId).toMatch(/.+/);

    const wrongToken = await agent.requests
      .get('req_unknown', { token: 'hrt_nope' })
      .catch((error: unknown) => error);
    expect(wrongToken).toMatchObject({ status: 404, code: 'request_not_found' });
  });
});

async function engagement() {
  const staff = createStaffClient({ baseUrl: base, token: staffToken });

  const endpoint = await agent.webhookEndpoints.create({
    url: `${receiver.url}/hooks`,
    event_types: ['request.created', 'job.completed'],
  });
  secret = endpoint.secret;

  const categories = await agent.services();
  expect(categories.data.map((category) => category.slug)).toContain('web-development');

  const created = await agent.requests.create(BAKERY_REQUEST);
  const id = created.id;
  expect(created.request_token).toMatch(/^hrt_/);

  // The long-poll: the first event is there at once; the next one wakes a waiting poll.
  const updates = agent.requests.updates(id);
  const first = await updates.next();
  expect(first.value).toMatchObject({ type: 'request.created', data: { sequence: 1 } });
  const pending = updates.next();

  // Staff onboard a provider and route the request to it.
  const provider = await staff.providers.create({
    name: 'Lovelace Studio',
    email: 'lovelace@providers.example.com',
    categories: ['web-development'],
  });
  const providerKey = await staff.providers.createKey(provider.id);
  const chosen = createProviderClient({ baseUrl: base, apiKey: providerKey.api_key });
  // The raw typed client stays reachable for any operation.
  expect(await unwrap(chosen.api.GET('/v1/provider/me'))).toMatchObject({ id: provider.id });
  await staff.requests.update(id, {
    status: 'routed',
    routing: { mode: 'direct', provider_ids: [provider.id] },
  });
  expect((await pending).value).toMatchObject({ type: 'request.updated', data: { sequence: 2 } });
  // Both sides list it, page after page, with `for await`.
  const routed: string[] = [];
  for await (const request of staff.requests.list({ status: 'routed' })) routed.push(request.id);
  expect(routed).toContain(id);
  const offered: string[] = [];
  for await (const request of chosen.requests.list()) offered.push(request.id);
  expect(offered).toEqual([id]);

  // The conversation both ways, then a proposal the customer accepts.
  await chosen.requests.sendMessage(id, { message: 'Do you already have a domain name?' });
  await agent.requests.sendMessage(id, { message: 'Yes: bakery.example.' });
  const read = await agent.requests.get(id);
  expect(read.conversation.map((message) => message.message)).toEqual([
    'Do you already have a domain name?',
    'Yes: bakery.example.',
  ]);
  // The whole conversation, paged, newest first (the read holds only the newest 1,000).
  const conversation = await toArray(agent.requests.messages.list(id));
  expect(conversation.map((message) => message.message)).toEqual([
    'Yes: bakery.example.',
    'Do you already have a domain name?',
  ]);

  const proposal = await chosen.requests.propose(id, {
    message: 'A one-page site with an order form, in two weeks.',
    amount: 1200,
    currency: 'USD',
    estimated_days: 14,
    milestones: [{ title: 'Design and build the page', amount: 1200, due_in_days: 14 }],
  });
  expect((await toArray(chosen.proposals.list({ status: 'submitted' }))).map((p) => p.id)).toEqual([
    proposal.id,
  ]);
  const open = await toArray(agent.requests.proposals.list(id, { status: 'submitted' }));
  expect(open.map((item) => item.id)).toEqual([proposal.id]);
  const accepted = await agent.requests.proposals.accept(id, proposal.id);
  expect(accepted.job).toMatchObject({ status: 'active', provider_id: provider.id });
  const jobId = accepted.job.id;
  const activeJobs: string[] = [];
  for await (const job of chosen.jobs.list({ status: 'active' })) activeJobs.push(job.id);
  expect(activeJobs).toEqual([jobId]);

  // Payment requests whatever their status, and the payment an approved one makes.
  const deposit = await agent.requests.proposePayment(id, {
    amount: 600,
    description: 'Deposit: half of the proposal.',
  });
  const photos = await agent.requests.proposePayment(id, {
    amount: 90,
    description: 'Stock photos.',
  });
  const pendingIds = await toArray(
    agent.requests.paymentRequests.list(id, { status: 'pending_approval' }),
  );
  expect(pendingIds.map((pr) => pr.id)).toEqual([photos.id, deposit.id]);
  const toApprove: string[] = [];
  for await (const pr of staff.paymentRequests.list({ status: 'pending_approval' })) {
    if (pr.request_id === id) toApprove.push(pr.id);
  }
  expect(toApprove).toEqual([photos.id, deposit.id]);
  await staff.paymentRequests.approve(deposit.id);
  await staff.paymentRequests.reject(photos.id, { reason: 'Photos are part of the build.' });
  expect(await agent.requests.paymentRequests.get(id, photos.id)).toMatchObject({
    status: 'rejected',
    rejection_reason: 'Photos are part of the build.',
  });
  const approved = await toArray(agent.requests.paymentRequests.list(id, { status: 'approved' }));
  expect(approved.map((pr) => pr.id)).toEqual([deposit.id]);
  expect((await toArray(agent.requests.paymentRequests.list(id))).map((pr) => pr.status)).toEqual([
    'rejected',
    'approved',
  ]);
  const payments = await eventually(async () => {
    const all = await toArray(agent.requests.payments.list(id));
    expect(all).toHaveLength(1);
    return all;
  });
  expect(payments[0]).toMatchObject({
    object: 'payment',
    payment_request_id: deposit.id,
    amount: 600,
    status: 'pending',
  });
  // The payment provider's name and reference are staff's.
  expect(payments[0]).not.toHaveProperty('provider_reference');
  expect(await toArray(agent.requests.payments.list(id, { status: 'completed' }))).toEqual([]);

  // The milestone: submitted, sent back once, submitted again and approved.
  const milestones = await eventually(async () => {
    const all = await toArray(agent.requests.milestones.list(id));
    expect(all).toHaveLength(1);
    return all;
  });
  const milestoneId = milestones[0]?.id ?? '';
  expect((await toArray(chosen.milestones.list({ job_id: jobId }))).map((m) => m.id)).toEqual([
    milestoneId,
  ]);
  await chosen.milestones.addDeliverable(milestoneId, {
    title: 'First version',
    url: 'https://preview.example.com/bakery-v1',
  });
  await chosen.milestones.submit(milestoneId);
  expect(
    await agent.requests.milestones.requestChanges(id, milestoneId, {
      reason: 'The order form needs a pickup time.',
    }),
  ).toMatchObject({ status: 'changes_requested' });
  const illegal = await agent.requests.milestones
    .approve(id, milestoneId)
    .catch((error: unknown) => error);
  expect(illegal).toMatchObject({ status: 409, code: 'invalid_state_transition' });
  await chosen.milestones.submit(milestoneId);
  expect(await agent.requests.milestones.approve(id, milestoneId)).toMatchObject({
    status: 'approved',
  });

  // A dispute opened, commented on and withdrawn; then the job and the request complete.
  const dispute = await agent.requests.disputes.open(id, {
    kind: 'refund',
    reason: 'The order form sends no confirmation e-mail.',
    amount: 200,
    currency: 'USD',
  });
  await agent.requests.disputes.comment(id, dispute.id, { message: 'Fixed now, thanks.' });
  expect(await agent.requests.disputes.withdraw(id, dispute.id)).toMatchObject({
    status: 'withdrawn',
  });
  await chosen.jobs.complete(jobId);
  await eventually(async () => {
    const done = await agent.requests.get(id);
    expect(done).toMatchObject({ status: 'completed' });
    return done;
  });

  // The updates iterator follows the story to its end, in sequence order with no gap.
  const story: string[] = ['request.created', 'request.updated'];
  for await (const event of updates) {
    expect(event.data.sequence).toBe(story.length + 1);
    story.push(event.type);
    if (event.type === 'request.updated' && event.data.object.status === 'completed') break;
  }
  expect(story).toEqual(
    expect.arrayContaining(['message.created', 'proposal.accepted', 'milestone.approved']),
  );
  // Nothing newer: the poll waits, then answers an empty list.
  const quiet = await agent.requests.waitForUpdates(id, { after: story.length, wait: 1 });
  expect(quiet).toEqual({ object: 'list', data: [], has_more: false });

  // The webhooks of the request arrived and verified with the SDK.
  await eventually(
    () => {
      const mine = verified.filter((event) => event.data.request_id === id);
      expect(mine.map((event) => event.type).sort()).toEqual(['job.completed', 'request.created']);
      return mine;
    },
    { timeoutMs: 30_000 },
  );
  expect(receiver.failures).toEqual([]);
  // Each of those deliveries is among the endpoint's attempts, answered 204.
  const delivered = verified.filter((event) => event.data.request_id === id).map((e) => e.id);
  await eventually(async () => {
    const attempts = await toArray(agent.webhookEndpoints.attempts(endpoint.id));
    expect(attempts.every((attempt) => attempt.endpoint_id === endpoint.id)).toBe(true);
    const answered = attempts.filter((attempt) => attempt.status_code === 204);
    expect(answered.map((attempt) => attempt.event_id)).toEqual(expect.arrayContaining(delivered));
    return attempts;
  });

  // The event feed, paged by the SDK, has the whole story.
  const events = await toArray(agent.events.list({ request_id: id }));
  expect(events.map((event) => event.type)).toEqual(
    expect.arrayContaining(['request.created', 'proposal.accepted', 'job.completed']),
  );
}
