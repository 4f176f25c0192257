import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@handoff/observability';
import { connectStore } from '@handoff/store';
import { freshDatabase } from '@handoff/testkit';
import { leases } from '../src/store/leases.ts';
import { described, useSimulation } from './support/stack.ts';

// Two replicas of the testmode service share the durable consumer, so one request's events go to
// either: the request's lease keeps them acting one at a time, and the events stay exactly the
// documented ones.

const stack = useSimulation(2);

describe('two replicas', () => {
  it('act on a request one at a time: happy_path’s events, each once', async () => {
    const id = await stack.testRequest('happy_path');
    await stack.waitFor(id, 5);
    await stack.acceptProposal(id);
    await stack.waitFor(id, 10);
    await stack.review(id, 'approve');
    await stack.waitFor(id, 16);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(described(stack.seen(id))).toEqual([
      'request.created:submitted',
      'request.updated:routed',
      'request.updated:routed',
      'message.created',
      'proposal.received:submitted',
      'proposal.accepted:accepted',
      'request.updated:in_progress',
      'milestone.created:open',
      'deliverable.created:submitted',
      'milestone.submitted:submitted',
      'milestone.approved:approved',
      'payment.requested:pending_approval',
      'payment.requested:approved',
      'payment.completed:completed',
      'job.completed:completed',
      'request.updated:completed',
    ]);
  }, 60_000);
});

describe('the request lease', () => {
  it('is held by one replica until it is given back or lapses', async () => {
    const { url, database } = freshDatabase('leases');
    const store = await connectStore({
      url,
      database,
      appName: 'testmode-test',
      logger: createLogger({ service: 'testmode-test', version: 'test', level: 'silent' }),
    });
    try {
      const lease = leases(store);
      expect(await lease.take('req_a', 'one', 60_000)).toBe(true);
      expect(await lease.take('req_a', 'two', 60_000)).toBe(false);
      // Its holder may take it again (a redelivered event on the same replica).
      expect(await lease.take('req_a', 'one', 60_000)).toBe(true);
      expect(await lease.take('req_b', 'two', 60_000)).toBe(true);
      await lease.release('req_a', 'two'); // not its holder: nothing changes
      expect(await lease.take('req_a', 'two', 60_000)).toBe(false);
      await lease.release('req_a', 'one');
      expect(await lease.take('req_a', 'two', 60_000)).toBe(true);
      // A holder that died: its lease lapses, and another replica takes it.
      expect(await lease.take('req_c', 'one', 1)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await lease.take('req_c', 'two', 60_000)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
