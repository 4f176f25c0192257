// Advancing a clock: deadlines are absolute times, so time passing for the clock's requests is
// their pending deadlines moving earlier. The walk goes from deadline to deadline: it asks each
// service that keeps deadlines for the soonest one ahead, moves every deadline of the requests
// earlier by the gap (in each of them), lets the services fire what fell due, and asks again,
// since what fired can have set new deadlines (an approval, an expiry). What is left of the
// advance after the last deadline before the target is one more move.
import { call, type Bus } from '@handoff/bus';
import {
  CLOCK_DEADLINE_OWNERS,
  intakeClockOps,
  TEST_CLOCK_LIMITS,
  type ClockDeadline,
  type Operation,
} from '@handoff/contracts';
import type { z } from 'zod';

/** How long one service may take over one step (a shift or a fire of up to 100 requests). */
const CALL_TIMEOUT_MS = 15_000;

type Owner = keyof typeof CLOCK_DEADLINE_OWNERS;
const OWNERS = Object.keys(CLOCK_DEADLINE_OWNERS) as Owner[];

export interface WalkClock {
  id: string;
  integration_id: string;
  frozen_time: Date;
}

export interface Walked {
  /** Where the clock got to: the target, or short of it when the advance fired its most. */
  frozen_time: Date;
  fired: number;
}

type Scope = { request_ids: string[] };

export class ClockWalk {
  readonly #bus: Bus;
  /** Called with the clock's time after each step, so that an advance cut short keeps it. */
  readonly #progress: (reached: Date) => Promise<void>;

  constructor(bus: Bus, progress: (reached: Date) => Promise<void>) {
    this.#bus = bus;
    this.#progress = progress;
  }

  async run(clock: WalkClock, target: Date): Promise<Walked> {
    const { request_ids } = await this.#call(intakeClockOps.requests, {
      integration_id: clock.integration_id,
      test_clock: clock.id,
    });
    if (request_ids.length === 0) return { frozen_time: target, fired: 0 };
    const scope = { request_ids };
    // What is due already fell before the clock's time: it goes first.
    await this.#fire(scope, OWNERS);
    let at = clock.frozen_time.getTime();
    let fired = 0;
    for (;;) {
      const next = await this.#soonest(scope);
      if (!next || at + next.deadline.in_ms > target.getTime()) break;
      if (fired >= TEST_CLOCK_LIMITS.firesPerAdvance) return { frozen_time: new Date(at), fired };
      await this.#shift(scope, next.deadline.in_ms);
      at += next.deadline.in_ms;
      await this.#progress(new Date(at));
      // Its owner first; the others for deadlines that fell due at the same moment.
      await this.#fire(scope, [next.owner, ...OWNERS.filter((owner) => owner !== next.owner)]);
      fired += 1;
    }
    const rest = target.getTime() - at;
    if (rest > 0) await this.#shift(scope, rest);
    return { frozen_time: target, fired };
  }

  /** The soonest deadline ahead among every owner's, with its owner. */
  async #soonest(scope: Scope): Promise<{ owner: Owner; deadline: ClockDeadline } | null> {
    const answers = await Promise.all(
      OWNERS.map(async (owner) => ({
        owner,
        deadline: (await this.#call(CLOCK_DEADLINE_OWNERS[owner].next, scope)).next,
      })),
    );
    let soonest: { owner: Owner; deadline: ClockDeadline } | null = null;
    for (const { owner, deadline } of answers) {
      if (deadline && (!soonest || deadline.in_ms < soonest.deadline.in_ms)) {
        soonest = { owner, deadline };
      }
    }
    return soonest;
  }

  async #shift(scope: Scope, byMs: number): Promise<void> {
    await Promise.all(
      OWNERS.map((owner) =>
        this.#call(CLOCK_DEADLINE_OWNERS[owner].shift, { ...scope, by_ms: byMs }),
      ),
    );
  }

  async #fire(scope: Scope, owners: readonly Owner[]): Promise<void> {
    for (const owner of owners) await this.#call(CLOCK_DEADLINE_OWNERS[owner].fire, scope);
  }

  #call<I extends z.ZodType, O extends z.ZodType>(
    op: Operation<I, O>,
    input: z.input<I>,
  ): Promise<z.output<O>> {
    return call(this.#bus.nc, op, input, { timeoutMs: CALL_TIMEOUT_MS });
  }
}
