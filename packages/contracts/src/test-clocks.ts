import { z } from 'zod';
import { livemodeField } from './test-mode.ts';
import { BusPage, listOf, Timestamp } from './common.ts';
import { idPattern } from './ids.ts';
import { intakeOp, milestonesOp, paymentsOp, testmodeOp } from './service-ops.ts';
import { trimmedText } from './text.ts';

/**
 * Test clocks (test mode, issue 33). A test request can be attached to a clock when it is made;
 * advancing the clock fires every deadline of its requests that falls at or before the new time
 * (an offer's response window, a proposal's expiry, a submitted milestone's auto-approval, a
 * dispute's escalation, a payment request's expiry), soonest first, with the events each has
 * when its time passes. Nothing outside the clock moves.
 *
 * How: deadlines are stored as absolute times, so advancing a clock by Δ is moving every pending
 * deadline of its requests Δ earlier. The services that own deadlines (intake, milestones,
 * payments) each answer {@link clockDeadlineOps} for a set of request ids; the testmode service
 * walks the clock from deadline to deadline with them.
 */

export const TEST_CLOCK_LIMITS = {
  /** Requests one clock may hold: what one advance reads and moves is bounded by them. */
  requestsPerClock: 100,
  /** Clocks an integration may have at once. */
  clocksPerIntegration: 20,
  /** Deadlines one advance fires at most; it stops there and the next advance goes on. */
  firesPerAdvance: 500,
  /** How far one advance may move a clock (two years). */
  maxAdvanceMs: 2 * 366 * 24 * 60 * 60 * 1000,
} as const;

export const TestClockId = z.string().regex(idPattern('clk'), 'a test clock id (`clk_…`)');

export const TestClockStatus = z.enum(['ready', 'advancing']);

export const TestClock = z.object({
  object: z.literal('test_clock'),
  id: z.string(),
  name: z.string().nullable(),
  frozen_time: Timestamp.meta({
    description:
      "The clock's time. The deadlines of its requests fall relative to it: one that is `n` " +
      'days away falls at `frozen_time` + `n` days, and fires when an advance passes it.',
  }),
  status: TestClockStatus.meta({
    description:
      '`advancing` while an advance runs (one that took longer than its answer could wait goes ' +
      'on in the background); `ready` otherwise.',
  }),
  requests: z.number().int().meta({ description: 'How many requests were made on the clock.' }),
  created_at: Timestamp,
  livemode: z.literal(false),
});
export type TestClock = z.infer<typeof TestClock>;

export const DeletedTestClock = z.object({
  object: z.literal('test_clock'),
  ...livemodeField,
  id: z.string(),
  deleted: z.literal(true),
});

export const TestClockCreate = z.strictObject({
  frozen_time: Timestamp.optional().meta({
    description: 'Where the clock starts (RFC 3339); now when left out.',
  }),
  name: trimmedText(100).optional(),
});
export type TestClockCreate = z.infer<typeof TestClockCreate>;

export const TestClockAdvance = z.strictObject({
  frozen_time: Timestamp.meta({
    description:
      "The clock's new time: later than its current `frozen_time`, by at most two years. Every " +
      'deadline of its requests at or before it fires, soonest first.',
  }),
});

const Id = z.string().max(64);
const Owned = z.object({ integration_id: Id, id: Id });

/** The testmode service's clocks, each scoped to the integration (its test twin) that owns it. */
export const testClockOps = {
  create: testmodeOp(
    'test_clocks.create',
    z.object({ integration_id: Id, input: TestClockCreate }),
    TestClock,
  ),
  list: testmodeOp('test_clocks.list', BusPage.extend({ integration_id: Id }), listOf(TestClock)),
  get: testmodeOp('test_clocks.get', Owned, TestClock),
  remove: testmodeOp('test_clocks.remove', Owned, DeletedTestClock),
  advance: testmodeOp('test_clocks.advance', Owned.extend({ frozen_time: Timestamp }), TestClock),
  /**
   * A request is about to be made on the clock: counts it against the clock's limit
   * (`test_clock_full`), or refuses an unknown clock or one advancing.
   */
  reserve: testmodeOp('test_clocks.reserve', Owned, TestClock),
} as const;

/** The requests of one clock, as the owning services are asked about them. */
const ClockRequests = z.object({
  request_ids: z.array(Id).min(1).max(TEST_CLOCK_LIMITS.requestsPerClock),
});

/** The soonest deadline of the requests that still lies ahead and fires something when it passes. */
export const ClockDeadline = z.object({
  resource: z.string(),
  id: z.string(),
  request_id: z.string(),
  /** How far ahead it lies, by the answering service's clock. */
  in_ms: z.number().int().positive(),
});
export type ClockDeadline = z.infer<typeof ClockDeadline>;

type OperationsOf = typeof intakeOp;

/** What a service that keeps deadlines does for a test clock, on the requests named. */
function clockDeadlineOps(op: OperationsOf) {
  return {
    /** The soonest deadline ahead (`null`: none) among those whose passing does something. */
    next: op(
      'test_clocks.next_deadline',
      ClockRequests,
      z.object({ next: ClockDeadline.nullable() }),
    ),
    /** Every pending deadline of the requests moves `by_ms` earlier (time passing for them). */
    shift: op(
      'test_clocks.shift',
      ClockRequests.extend({
        by_ms: z.number().int().min(1).max(TEST_CLOCK_LIMITS.maxAdvanceMs),
      }),
      z.object({ shifted: z.number().int() }),
    ),
    /** What of the requests is past its deadline now gets its deadline action, as the sweep does. */
    fire: op('test_clocks.fire', ClockRequests, z.object({ fired: z.number().int() })),
  };
}

export const milestonesClockOps = clockDeadlineOps(milestonesOp);
export const paymentsClockOps = clockDeadlineOps(paymentsOp);
export const intakeClockOps = {
  ...clockDeadlineOps(intakeOp),
  /** The clock's requests: test requests of the integration made on it, oldest first. */
  requests: intakeOp(
    'test_clocks.requests',
    z.object({ integration_id: Id, test_clock: Id }),
    z.object({ request_ids: z.array(z.string()).max(TEST_CLOCK_LIMITS.requestsPerClock) }),
  ),
} as const;

/** The services that keep deadlines, as a clock walks them. */
export const CLOCK_DEADLINE_OWNERS = {
  intake: intakeClockOps,
  milestones: milestonesClockOps,
  payments: paymentsClockOps,
} as const;
