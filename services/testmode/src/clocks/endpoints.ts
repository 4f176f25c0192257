// `test_clocks.*`: an integration's test clocks (test mode), and their advances.
import { BusError, implement, type Bus, type Endpoint } from '@handoff/bus';
import { newId, TEST_CLOCK_LIMITS, testClockOps } from '@handoff/contracts';
import type { Logger } from '@handoff/observability';
import { paginate, type Store } from '@handoff/store';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  clockCollection,
  clockView,
  ownedClock,
  refuseWhileAdvancing,
  updateClock,
  type ClockCollection,
  type TestClockDoc,
} from './store.ts';
import { ClockWalk } from './walk.ts';

export interface ClockDeps {
  bus: Bus;
  store: Store;
  logger: Logger;
}

/**
 * How long an advance's answer waits for it: within the gateway's bus timeout. A longer one
 * answers `status: advancing` and goes on; the clock reads `ready` when it is done.
 */
const ANSWER_WITHIN_MS = 2_000;
/** How long an advance holds its clock past its last step (then a stopped one lets go). */
const LEASE_MS = 60_000;

const lease = () => new Date(Date.now() + LEASE_MS);

function invalidTarget(code: string, detail: string): BusError {
  return new BusError('validation_failed', detail, {
    details: { errors: [{ pointer: '/frozen_time', code, detail }] },
  });
}

/** The target of an advance: later than the clock, and at most the longest advance away. */
function checkTarget(doc: TestClockDoc, target: Date): void {
  const by = target.getTime() - doc.frozen_time.getTime();
  if (by <= 0) {
    throw invalidTarget(
      'not_after_frozen_time',
      `A clock only moves forward: give a time after ${doc.frozen_time.toISOString()}.`,
    );
  }
  if (by > TEST_CLOCK_LIMITS.maxAdvanceMs) {
    throw invalidTarget('advance_too_far', 'One advance moves a clock by two years at most.');
  }
}

/** `promise`'s value if it settles within `ms`, else undefined (it goes on regardless). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const timer = new AbortController();
  const late = sleep(ms, undefined, { signal: timer.signal, ref: false }).catch(() => undefined);
  try {
    return await Promise.race([promise, late]);
  } finally {
    timer.abort();
  }
}

/**
 * Runs the walk of a clock this advance holds, keeping its time after each step; whatever
 * happens, the clock is let go at the time reached. Never rejects: a failure comes back as
 * `error`, since nobody may be waiting any more.
 */
async function advanceHeld(
  deps: ClockDeps,
  clocks: ClockCollection,
  held: TestClockDoc,
  target: Date,
): Promise<{ doc: TestClockDoc; error?: unknown }> {
  let current = held;
  const keep = async (reached: Date) => {
    current = await updateClock(clocks, current, {
      frozen_time: reached,
      advancing_until: lease(),
    });
  };
  let reached: Date;
  let error: unknown;
  try {
    const walked = await new ClockWalk(deps.bus, keep).run(
      { id: held._id, integration_id: held.integration_id, frozen_time: held.frozen_time },
      target,
    );
    reached = walked.frozen_time;
  } catch (failure) {
    error = failure;
    reached = current.frozen_time;
    deps.logger.error({ err: failure, test_clock: held._id }, 'test clock advance failed');
  }
  const release = { frozen_time: reached, status: 'ready' as const, advancing_until: null };
  try {
    current = await updateClock(clocks, current, release);
  } catch (failure) {
    // Its lease runs out anyway: the clock then reads ready at the time of its last step.
    deps.logger.error({ err: failure, test_clock: held._id }, 'test clock not released');
    error ??= failure;
  }
  return error === undefined ? { doc: current } : { doc: current, error };
}

export function clockEndpoints(deps: ClockDeps): Record<string, Endpoint> {
  const clocks = clockCollection(deps.store);
  const inTurn = <T>(id: string, task: () => Promise<T>) => deps.store.serialize(clocks, id, task);

  return {
    ...implement(testClockOps.create, ({ integration_id, input }) =>
      // In the integration's turn, so that concurrent creations cannot pass the limit together.
      inTurn(`integration:${integration_id}`, async () => {
        const limit = TEST_CLOCK_LIMITS.clocksPerIntegration;
        if ((await clocks.countDocuments({ integration_id })) >= limit) {
          throw new BusError(
            'limit_reached',
            `An integration can have at most ${limit} test clocks; delete one first.`,
            { details: { limit } },
          );
        }
        const now = new Date();
        const doc: TestClockDoc = {
          _id: newId('clk'),
          integration_id,
          name: input.name ?? null,
          frozen_time: input.frozen_time === undefined ? now : new Date(input.frozen_time),
          status: 'ready',
          advancing_until: null,
          requests: 0,
          created_at: now,
          updated_at: now,
        };
        await clocks.insertOne(doc);
        return clockView(doc);
      }),
    ),

    ...implement(testClockOps.list, async ({ integration_id, ...page }) => {
      const found = await paginate(clocks, { integration_id }, page);
      return { object: 'list' as const, data: found.data.map(clockView), has_more: found.has_more };
    }),

    ...implement(testClockOps.get, async ({ integration_id, id }) =>
      clockView(await ownedClock(clocks, integration_id, id)),
    ),

    ...implement(testClockOps.remove, ({ integration_id, id }) =>
      inTurn(id, async () => {
        refuseWhileAdvancing(await ownedClock(clocks, integration_id, id));
        await clocks.deleteOne({ _id: id, integration_id });
        return { object: 'test_clock' as const, id, deleted: true as const };
      }),
    ),

    ...implement(testClockOps.reserve, ({ integration_id, id }) =>
      inTurn(id, async () => {
        const doc = await ownedClock(clocks, integration_id, id);
        refuseWhileAdvancing(doc);
        const limit = TEST_CLOCK_LIMITS.requestsPerClock;
        if (doc.requests >= limit) {
          throw new BusError(
            'test_clock_full',
            `A test clock holds at most ${limit} requests; make another clock.`,
            { details: { limit } },
          );
        }
        return clockView(await updateClock(clocks, doc, { requests: doc.requests + 1 }));
      }),
    ),

    ...implement(testClockOps.advance, async ({ integration_id, id, frozen_time }) => {
      const target = new Date(frozen_time);
      const held = await inTurn(id, async () => {
        const doc = await ownedClock(clocks, integration_id, id);
        refuseWhileAdvancing(doc);
        checkTarget(doc, target);
        return updateClock(clocks, doc, { status: 'advancing', advancing_until: lease() });
      });
      const done = await within(advanceHeld(deps, clocks, held, target), ANSWER_WITHIN_MS);
      if (!done) return clockView((await clocks.findOne({ _id: id })) ?? held);
      if (done.error !== undefined) throw done.error;
      return clockView(done.doc);
    }),
  };
}
