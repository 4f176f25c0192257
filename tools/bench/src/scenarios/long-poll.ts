// The long-poll for a request's updates (`GET /v1/request/{id}/events?after=&wait=`), which agents
// without a public HTTPS endpoint use instead of webhooks:
//
// - long-poll-answer: how soon a waiting poll answers after its event happened. Each connection
//   has a request of its own; it starts a poll, sends a message on the request, and times the
//   poll's answer against the `timestamp` the service wrote into the `message.created` event (the
//   same machine's clock). The path: the outbox publish, the webhook dispatcher storing the event
//   (the poll reads its feed), the gateway's core-NATS wake-up, one feed read and the answer.
// - long-poll-held: `GET /v1/me` (as gateway-authenticated) while the gateway process holds as
//   many waiting polls as it may (UPDATES_MAX_WAITERS_PER_PROCESS), counted by `GET
//   /v1/staff/health` before and after the measurement: what holding them costs other traffic.
import { UPDATES_LIMITS } from '@handoff/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createRequest,
  requestHeaders,
  requestPath,
  times,
  type CreatedRequest,
} from '../fixtures/agent-api.ts';
import { BENCH_LONG_POLLS, type GatewayStack } from '../fixtures/gateway-stack.ts';
import { recordNs } from '../measure.ts';
import type { Fixture, Measurement, Scenario } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';

/** The longest wait the API allows: a poll that is never woken answers empty after it. */
const WAIT_S = UPDATES_LIMITS.maxWaitSeconds;
/** The head start a poll gets before its event is caused, so that it is usually waiting. */
const POLL_HEAD_START_MS = 20;
const SETUP_CONCURRENCY = 8;
/**
 * The polls long-poll-held keeps waiting: the requests they are spread over (a divisor of
 * BENCH_LONG_POLLS), how long setup waits for the gateway to report every one as waiting, and
 * how many it opens at once.
 */
const HELD = { requests: 20, settleMs: 60_000, batch: 100 } as const;

interface EventsAnswer {
  data: { timestamp: string; data: { sequence: number } }[];
}

/** One long-poll; resolves with its answer and the wall-clock time it arrived. */
async function poll(
  stack: GatewayStack,
  request: CreatedRequest,
  after: number,
  wait: number,
  signal?: AbortSignal,
): Promise<{ status: number; body: EventsAnswer | null; receivedAt: number }> {
  const res = await fetch(
    `${stack.url}${requestPath(request.id)}/events?after=${after}&wait=${wait}`,
    { headers: requestHeaders(stack, request), ...(signal ? { signal } : {}) },
  );
  const receivedAt = Date.now();
  const body = res.ok ? ((await res.json()) as EventsAnswer) : (await res.text(), null);
  return { status: res.status, body, receivedAt };
}

const lastSequence = (answer: EventsAnswer | null, after: number) =>
  Math.max(after, ...(answer?.data.map((event) => event.data.sequence) ?? []));

function fail(measurement: Measurement, reason: string) {
  measurement.errors += 1;
  measurement.firstError ??= reason;
}

/** Event-to-answer latency of a waiting long-poll, one request per connection. */
export function longPollAnswer(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'long-poll-answer',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway GET /v1/request/{id}/events?wait=${WAIT_S} woken by a message on its request; p50/p99 from the event's timestamp to the poll's answer, one request per connection, shared full stack, LOG_LEVEL=${logLevel}`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      ctx.progress(`creating ${ctx.connections} requests, one per connection`);
      const pool = await times(ctx.connections, SETUP_CONCURRENCY, async () => {
        const request = await createRequest(gateway, { signal: ctx.signal });
        // Its `request.created`, once the feed has it: the sequence the loop starts after.
        const first = await poll(gateway, request, 0, WAIT_S, ctx.signal);
        if (first.status !== 200) throw new Error(`the first poll answered ${first.status}`);
        return { request, after: lastSequence(first.body, 0) };
      });
      let stopping = false;
      let loops: Promise<void>[] = [];
      const loop = async (entry: (typeof pool)[number], measurement: Measurement) => {
        while (!stopping) {
          try {
            const waiting = poll(gateway, entry.request, entry.after, WAIT_S);
            await sleep(POLL_HEAD_START_MS);
            const sent = await fetch(`${gateway.url}${requestPath(entry.request.id)}/message`, {
              method: 'POST',
              headers: {
                ...requestHeaders(gateway, entry.request),
                'Content-Type': 'application/json',
              },
              body: JSON.stringify({ message: 'Any update?' }),
            });
            await sent.text();
            const answer = await waiting;
            if (sent.status !== 201 || answer.status !== 200) {
              fail(measurement, `message ${sent.status}, poll ${answer.status}`);
              continue;
            }
            const event = answer.body?.data.find((one) => one.data.sequence > entry.after);
            if (!event) {
              fail(measurement, `the poll answered without the event after ${entry.after}`);
              continue;
            }
            const latencyMs = Math.max(0, answer.receivedAt - Date.parse(event.timestamp));
            recordNs(measurement, latencyMs * 1_000_000);
            measurement.ok += 1;
            entry.after = lastSequence(answer.body, entry.after);
          } catch (error) {
            fail(measurement, error instanceof Error ? error.message : String(error));
          }
        }
      };
      return {
        kind: 'observed',
        start(measurement) {
          stopping = false;
          loops = pool.map((entry) => loop(entry, measurement));
        },
        async stop() {
          stopping = true;
          await Promise.all(loops);
        },
      };
    },
  };
}

/** `GET /v1/me` while the gateway holds as many waiting long-polls as it may. */
export function longPollHeld(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'long-poll-held',
    description: `gateway GET /v1/me with an agent key (as gateway-authenticated) while the same gateway process holds ${BENCH_LONG_POLLS} waiting long-polls (wait=${WAIT_S}, each renewed when it answers), shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const waitingNow = async () => {
        const res = await fetch(`${gateway.url}/v1/staff/health`, {
          headers: { Authorization: `Bearer ${gateway.staffToken}` },
        });
        const body = (await res.json()) as { gateway?: { long_polls?: { waiting?: number } } };
        return body.gateway?.long_polls?.waiting ?? -1;
      };
      ctx.progress(`creating ${HELD.requests} requests to hold ${BENCH_LONG_POLLS} polls on`);
      const requests = await times(HELD.requests, SETUP_CONCURRENCY, async () => {
        const request = await createRequest(gateway, { signal: ctx.signal });
        const first = await poll(gateway, request, 0, WAIT_S, ctx.signal);
        if (first.status !== 200) throw new Error(`the first poll answered ${first.status}`);
        return { request, after: lastSequence(first.body, 0) };
      });
      const abort = new AbortController();
      const failures: string[] = [];
      const hold = async (entry: (typeof requests)[number]) => {
        while (!abort.signal.aborted) {
          try {
            const answer = await poll(gateway, entry.request, entry.after, WAIT_S, abort.signal);
            // A later event of the request (routing updates it) moves every poll of it on, or
            // they would all answer at once, again and again.
            entry.after = lastSequence(answer.body, entry.after);
            if (answer.status === 200) continue;
            failures.push(`a held poll answered ${answer.status}`);
          } catch (error) {
            if (abort.signal.aborted) return;
            failures.push(String(error));
          }
          // Failed: counted, and not at once again (no storm of retries).
          await sleep(1_000);
        }
      };
      const held: Promise<void>[] = [];
      ctx.teardown(async () => {
        // Checked before they are let go: every poll still waiting (a renewal may be under way
        // for a moment), none refused or failed.
        let waiting = await waitingNow();
        for (let look = 0; look < 25 && waiting !== BENCH_LONG_POLLS; look += 1) {
          await sleep(200);
          waiting = await waitingNow();
        }
        abort.abort();
        await Promise.all(held);
        if (failures.length > 0) {
          throw new Error(`${failures.length} held polls failed, first: ${failures[0]}`);
        }
        if (waiting !== BENCH_LONG_POLLS) {
          throw new Error(`after the measurement ${waiting} polls waited, not ${BENCH_LONG_POLLS}`);
        }
      });
      // Opened a batch at a time, each batch once the one before waits: every poll's first look
      // is a read of the feed, and 2,000 at once would measure that burst, not holding them.
      ctx.progress(`opening ${BENCH_LONG_POLLS} long-polls, ${HELD.batch} at a time`);
      const targets = requests.flatMap((entry) =>
        Array.from({ length: BENCH_LONG_POLLS / HELD.requests }, () => entry),
      );
      const deadline = Date.now() + HELD.settleMs;
      let waiting = 0;
      for (let opened = 0; opened < targets.length;) {
        const batch = targets.slice(opened, opened + HELD.batch);
        held.push(...batch.map((entry) => hold(entry)));
        opened += batch.length;
        while (waiting < opened && Date.now() < deadline && failures.length === 0) {
          await sleep(100, undefined, { signal: ctx.signal });
          waiting = await waitingNow();
        }
      }
      if (waiting !== BENCH_LONG_POLLS) {
        throw new Error(
          `the gateway reports ${waiting} waiting polls, not ${BENCH_LONG_POLLS}` +
            (failures[0] ? `; first failure: ${failures[0]}` : ''),
        );
      }
      ctx.progress(`the gateway holds ${waiting} waiting long-polls`);
      return {
        kind: 'http',
        url: `${gateway.url}/v1/me`,
        headers: { Authorization: `Bearer ${gateway.agent.api_key}` },
        expectStatus: 200,
      };
    },
  };
}
