import { describe, expect, it } from '@jest/globals';
import { routingOps, SIMULATED_PROVIDER_ID, type EventEnvelope } from '@handoff/contracts';
import { createLogger } from '@handoff/observability';
import {
  eventually,
  TEST_MODE_OPENING as OPENING,
  TEST_MODE_PAID as PAID,
  TEST_MODE_WORK as WORK,
} from '@handoff/testkit';
import { acting } from '../src/handlers/acting.ts';
import { REACTIONS } from '../src/handlers/events.consumer.ts';
import { scenarios } from '../src/handlers/scenarios.ts';
import { described, useSimulation, type Simulation } from './support/stack.ts';

// Each scenario of docs/test-mode.md at the bus: the test plays the agent through the operations
// the gateway calls for it, and the request's events must be exactly the documented ones.

const stack = useSimulation();

/** Waits for exactly `expected` (no event more, a moment later), as `type:status` lines. */
async function expectEvents(requestId: string, expected: string[]) {
  await stack.waitFor(requestId, expected.length);
  // Long enough for a reaction that should not happen to have happened.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const seen = stack.seen(requestId);
  expect(described(seen)).toEqual(expected);
  expect(seen.map((event) => event.sequence)).toEqual(expected.map((_, index) => index + 1));
}

/**
 * Every event of the request so far handled again, as a redelivery would be: nothing more may
 * happen (each act reads the state first).
 */
async function redeliverAll(sim: Simulation, requestId: string) {
  const before = sim.seen(requestId).length;
  const a = acting(
    sim.nc,
    createLogger({ service: 'testmode-test', version: 'test', level: 'silent' }),
  );
  const known = scenarios(a);
  const events: EventEnvelope[] = sim.events
    .filter((event) => event.data.request_id === requestId)
    .sort((x, y) => x.data.sequence - y.data.sequence);
  for (const event of events) {
    await REACTIONS[event.type]?.({ a, scenarios: known, event, requestId });
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(sim.seen(requestId)).toHaveLength(before);
}

describe('the simulated provider', () => {
  it('happy_path: proposes, delivers, is paid and completes the job; redeliveries do nothing', async () => {
    const id = await stack.testRequest('happy_path');
    await expectEvents(id, OPENING);
    await redeliverAll(stack, id);
    await stack.acceptProposal(id);
    await expectEvents(id, [...OPENING, ...WORK]);
    await redeliverAll(stack, id);
    await stack.review(id, 'approve');
    await expectEvents(id, [...OPENING, ...WORK, 'milestone.approved:approved', ...PAID]);
    await redeliverAll(stack, id);
  }, 60_000);

  it('asks_question: asks first, proposes after the agent’s next message', async () => {
    const id = await stack.testRequest('asks_question');
    const asked = OPENING.slice(0, 4);
    await expectEvents(id, asked);
    await stack.write(id, 'Thursday morning suits us.');
    await expectEvents(id, [...asked, 'message.created', 'proposal.received:submitted']);
    await redeliverAll(stack, id);
  }, 60_000);

  it('declines: declines the offer, and the request waits in the staff queue', async () => {
    const id = await stack.testRequest('declines');
    await expectEvents(id, [
      'request.created:submitted',
      'request.updated:routed',
      'request.updated:submitted',
    ]);
    // Intake's rules queue it once they see the decline (no event: the queue is staff's).
    const routing = await eventually(async () => {
      const read = await stack.call(routingOps.get, { id });
      return read.automatic_routing.state === 'queued' ? read.automatic_routing : undefined;
    });
    expect(routing).toMatchObject({
      queue_reason: 'offers_exhausted',
      offers: [{ provider_id: SIMULATED_PROVIDER_ID, status: 'declined' }],
    });
  }, 60_000);

  it('misses_deadline: opens the milestone and never submits it', async () => {
    const id = await stack.testRequest('misses_deadline');
    await expectEvents(id, OPENING);
    await stack.acceptProposal(id);
    await expectEvents(id, [...OPENING, ...WORK.slice(0, 3)]);
    await redeliverAll(stack, id);
  }, 60_000);

  it('requests_changes: resubmits after the agent’s change request', async () => {
    const id = await stack.testRequest('requests_changes');
    await expectEvents(id, OPENING);
    await stack.acceptProposal(id);
    await expectEvents(id, [...OPENING, ...WORK]);
    await stack.review(id, 'request_changes');
    const revised = [
      ...OPENING,
      ...WORK,
      'milestone.updated:changes_requested',
      'deliverable.created:submitted',
      'milestone.submitted:submitted',
    ];
    await expectEvents(id, revised);
    await redeliverAll(stack, id);
    await stack.review(id, 'approve');
    await expectEvents(id, [...revised, 'milestone.approved:approved', ...PAID]);
  }, 60_000);

  it('disputes: answers the agent’s case; the job completes once it is withdrawn and paid', async () => {
    const id = await stack.testRequest('disputes');
    await expectEvents(id, OPENING);
    await stack.acceptProposal(id);
    await expectEvents(id, [...OPENING, ...WORK]);
    await stack.openDispute(id);
    const answered = [...OPENING, ...WORK, 'dispute.created:open', 'dispute.updated:open'];
    await expectEvents(id, answered);
    await redeliverAll(stack, id);
    await stack.withdrawDispute(id);
    await stack.review(id, 'approve');
    await expectEvents(id, [
      ...answered,
      'dispute.updated:withdrawn',
      'milestone.approved:approved',
      ...PAID,
    ]);
  }, 60_000);

  it('disputes, approved while the case is open: the job waits for the case to close', async () => {
    const id = await stack.testRequest('disputes');
    await expectEvents(id, OPENING);
    await stack.acceptProposal(id);
    await expectEvents(id, [...OPENING, ...WORK]);
    await stack.openDispute(id);
    await stack.waitFor(id, OPENING.length + WORK.length + 2);
    await stack.review(id, 'approve');
    const paid = [
      ...OPENING,
      ...WORK,
      'dispute.created:open',
      'dispute.updated:open',
      'milestone.approved:approved',
      ...PAID.slice(0, 3),
    ];
    await expectEvents(id, paid);
    await stack.withdrawDispute(id);
    await expectEvents(id, [...paid, 'dispute.updated:withdrawn', ...PAID.slice(3)]);
  }, 60_000);

  it('payment_fails: the first payment fails; a new payment request of the agent is paid', async () => {
    const id = await stack.testRequest('payment_fails');
    await expectEvents(id, OPENING);
    await stack.acceptProposal(id);
    await expectEvents(id, [...OPENING, ...WORK]);
    await stack.review(id, 'approve');
    const failed = [
      ...OPENING,
      ...WORK,
      'milestone.approved:approved',
      'payment.requested:pending_approval',
      'payment.requested:approved',
      'payment.failed:failed',
      'message.created',
    ];
    await expectEvents(id, failed);
    await redeliverAll(stack, id);
    await stack.proposePayment(id);
    await expectEvents(id, [...failed, ...PAID]);
  }, 60_000);
});
