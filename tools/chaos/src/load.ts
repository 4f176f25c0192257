// The steady mixed load of a chaos run: workers each drive engagements from the handoff to the
// completed job through the SDK (the agent, staff and providers, every call spread over the
// gateways), while a long-poll follows each engagement's request. Each acknowledged write goes
// into the ledger; a call the SDK gave up on after its retries ends that engagement.
import { HandoffConnectionError, HandoffError, toArray } from '@handoff/sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ledger } from './ledger.ts';
import type { Random } from './random.ts';
import type { Provider, World } from './world.ts';

/** Engagements under way at once. */
export const LOAD_WORKERS = 4;
/** How long a long-poll waits (seconds), and how long past that it may take before it counts as stuck. */
export const POLL_WAIT_S = 10;
const POLL_GRACE_MS = 30_000;
/**
 * How long an effect of a write (a payment, a milestone) may take to appear: a consumer whose
 * replica was killed holding its message gets it again after its ack wait, and on a loaded
 * machine that takes a while; an effect still missing after this is lost.
 */
const EFFECT_TIMEOUT_MS = 180_000;

/** Runs the load until `signal` aborts, then lets the engagements under way finish their step. */
export async function runLoad(options: {
  world: World;
  ledger: Ledger;
  random: Random;
  run: string;
  signal: AbortSignal;
}): Promise<void> {
  let next = 0;
  const worker = async (random: Random) => {
    while (!options.signal.aborted) {
      next += 1;
      await engagement({ ...options, random, n: next });
    }
  };
  await Promise.all(Array.from({ length: LOAD_WORKERS }, () => worker(options.random.fork())));
}

/** A call the load gave up on (its write is unacknowledged), or an answer it did not expect. */
class StepFailed extends Error {}

interface Context {
  world: World;
  ledger: Ledger;
  random: Random;
  run: string;
  n: number;
  signal: AbortSignal;
}

async function engagement(ctx: Context): Promise<void> {
  const { world, ledger, random } = ctx;
  const text = (what: string) => `chaos ${ctx.run} ${what} ${ctx.n}`;
  const step = <T>(name: string, call: () => Promise<T>) => stepOf(ledger, name, call);
  const stopFollowing = new AbortController();
  let follower: Promise<void> = Promise.resolve();
  try {
    const created = await step('create', () =>
      world.agent.requests.create({
        message: text('request'),
        name: 'Chaos Customer',
        email: 'customer@example.com',
        category: 'web-development',
      }),
    );
    const id = created.id;
    ledger.acked({ kind: 'request', requestId: id, id, text: text('request') });
    follower = follow(world, ledger, id, stopFollowing.signal);

    const provider: Provider = random.pick(world.providers);
    await step('route', () =>
      world.staff.requests.update(id, {
        status: 'routed',
        routing: { mode: 'direct', provider_ids: [provider.id] },
      }),
    );
    ledger.acked({ kind: 'route', requestId: id, id });
    await conversation(ctx, id, provider, text);
    await engaged(ctx, id, provider, text);
    ledger.completed += 1;
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
  } finally {
    // The follower keeps polling a little after the last write, so that it sees its event.
    await sleep(random.int(500, 2_000));
    stopFollowing.abort();
    await follower;
  }
}

async function conversation(
  ctx: Context,
  id: string,
  provider: Provider,
  text: (what: string) => string,
): Promise<void> {
  const { world, ledger } = ctx;
  const asked = await stepOf(ledger, 'provider message', () =>
    provider.client.requests.sendMessage(id, { message: text('provider message') }),
  );
  ledger.acked({ kind: 'message', requestId: id, id: asked.id, text: text('provider message') });
  const answered = await stepOf(ledger, 'agent message', () =>
    world.agent.requests.sendMessage(id, { message: text('agent message') }),
  );
  ledger.acked({ kind: 'message', requestId: id, id: answered.id, text: text('agent message') });
}

/** From the proposal to the completed job: the money and the milestone. */
async function engaged(
  ctx: Context,
  id: string,
  provider: Provider,
  text: (what: string) => string,
): Promise<void> {
  const { world, ledger } = ctx;
  const step = <T>(name: string, call: () => Promise<T>) => stepOf(ledger, name, call);
  const proposal = await step('propose', () =>
    provider.client.requests.propose(id, {
      message: text('proposal'),
      amount: 500,
      currency: 'USD',
      estimated_days: 7,
      milestones: [{ title: 'Build it', amount: 500, due_in_days: 7 }],
    }),
  );
  ledger.acked({ kind: 'proposal', requestId: id, id: proposal.id, text: text('proposal') });
  const accepted = await step('accept', () =>
    world.agent.requests.proposals.accept(id, proposal.id),
  );
  ledger.acked({ kind: 'accept', requestId: id, id: proposal.id });
  const jobId = accepted.job.id;

  const asked = await step('propose payment', () =>
    world.agent.requests.proposePayment(id, { amount: 100, description: text('payment') }),
  );
  ledger.acked({ kind: 'payment_request', requestId: id, id: asked.id, text: text('payment') });
  await step('approve payment', () => world.staff.paymentRequests.approve(asked.id));
  ledger.acked({ kind: 'payment_approval', requestId: id, id: asked.id });
  const payment = await effect(ctx, 'the approved payment', async () => {
    const all = await toArray(world.agent.requests.payments.list(id));
    return all.find((item) => item.payment_request_id === asked.id);
  });
  await confirmTwice(ctx, id, payment.id);

  const milestone = await effect(ctx, "the accepted proposal's milestone", async () => {
    const all = await toArray(world.agent.requests.milestones.list(id));
    return all[0];
  });
  const deliverable = await step('add deliverable', () =>
    provider.client.milestones.addDeliverable(milestone.id, {
      title: text('deliverable'),
      url: `https://preview.example.com/chaos/${ctx.n}`,
    }),
  );
  ledger.acked({ kind: 'deliverable', requestId: id, id: deliverable.id });
  await step('submit milestone', () => provider.client.milestones.submit(milestone.id));
  ledger.acked({ kind: 'submit', requestId: id, id: milestone.id });
  await step('approve milestone', () => world.agent.requests.milestones.approve(id, milestone.id));
  ledger.acked({ kind: 'milestone_approval', requestId: id, id: milestone.id });
  await step('complete job', () => provider.client.jobs.complete(jobId));
  ledger.acked({ kind: 'job_complete', requestId: id, id: jobId });
}

/**
 * Staff confirm the payment twice at once, through any gateways: it must complete once. The
 * second confirmation is answered as done (200) or refused as a conflict (409).
 */
async function confirmTwice(ctx: Context, id: string, paymentId: string): Promise<void> {
  const confirm = () => ctx.world.staff.payments.confirm(paymentId);
  const results = await Promise.allSettled([confirm(), confirm()]);
  const done = results.filter((result) => result.status === 'fulfilled').length;
  for (const result of results) {
    if (result.status === 'fulfilled') continue;
    const error: unknown = result.reason;
    if (error instanceof HandoffError && error.status === 409) continue;
    const second = `confirm payment (the second of two): ${String(error)}`;
    if (done > 0) (gaveUp(error) ? ctx.ledger.abandoned : ctx.ledger.unexpected).push(second);
    else await stepOf(ctx.ledger, 'confirm payment', () => Promise.reject(error));
  }
  if (done === 0) throw new StepFailed('confirm payment');
  ctx.ledger.acked({ kind: 'payment_confirm', requestId: id, id: paymentId });
}

/** Reads until `read` finds what an acknowledged write must have made; not found: unexpected. */
async function effect<T>(
  ctx: Context,
  what: string,
  read: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + EFFECT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const found = await stepOf(ctx.ledger, `read ${what}`, read);
    if (found !== undefined) return found;
    await sleep(250);
  }
  ctx.ledger.unexpected.push(`${what} did not appear within ${EFFECT_TIMEOUT_MS / 1000} s`);
  throw new StepFailed(what);
}

/** The SDK gave up after its retries: no answer, so the write is unacknowledged (not a finding). */
function gaveUp(error: unknown): boolean {
  return (
    error instanceof HandoffConnectionError ||
    (error instanceof HandoffError && error.status >= 500)
  );
}

/** One call: its answer, or the engagement ends (abandoned after retries, or unexpected). */
async function stepOf<T>(ledger: Ledger, name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (gaveUp(error)) {
      ledger.abandoned.push(`${name}: ${(error as Error).message}`);
    } else {
      ledger.unexpected.push(`${name}: ${String(error)}`);
    }
    throw new StepFailed(name);
  }
}

/**
 * Long-polls the request's events until `signal` aborts, recording each poll; the events must
 * come in sequence order with no gap.
 */
async function follow(
  world: World,
  ledger: Ledger,
  id: string,
  signal: AbortSignal,
): Promise<void> {
  let after = 0;
  while (!signal.aborted) {
    const startedAt = Date.now();
    const stuck = AbortSignal.timeout(POLL_WAIT_S * 1000 + POLL_GRACE_MS);
    try {
      const page = await world.agent.requests.waitForUpdates(
        id,
        { after, wait: POLL_WAIT_S },
        { signal: AbortSignal.any([stuck, signal]) },
      );
      ledger.polls.push({
        requestId: id,
        after,
        startedAt,
        endedAt: Date.now(),
        events: page.data.length,
      });
      for (const event of page.data) {
        if (event.data.sequence !== after + 1) {
          ledger.unexpected.push(
            `long-poll of ${id}: sequence ${event.data.sequence} after ${after} (${event.type})`,
          );
        }
        after = Math.max(after, event.data.sequence);
      }
    } catch (error) {
      // Stopped by the engagement's end: not a poll that failed.
      if (signal.aborted) return;
      ledger.polls.push({
        requestId: id,
        after,
        startedAt,
        endedAt: Date.now(),
        events: 0,
        error: String(error),
      });
      await sleep(200);
    }
  }
}
