// Webhook deliveries end to end on the shared stack: the bench creates requests over NATS
// (intake's create, which publishes `request.created` to JetStream, as the gateway's create does),
// the webhook dispatcher consumes each event, makes one delivery per subscribed endpoint and sends
// each as a signed POST; one receiver in the bench process takes them all. Per delivery: the
// consumer asks intake for the request's owner, stores the event and the deliveries, then per
// attempt claims a lease, reads the endpoint and the event, signs, POSTs, stores the attempt and
// marks the delivery done; all of it in the dispatcher's database (FerretDB on SQLite locally).
//
// Each size has an integration of its own (onboarded in setup), with its endpoints deleted when it
// is torn down, and every event's deliveries are waited for before the measurement ends: so one
// size's events never reach (or still occupy the dispatcher during) the next one's.
import { call } from '@handoff/bus';
import { EventEnvelope, requestOps } from '@handoff/contracts';
import { connect } from '@nats-io/transport-node';
import { MongoClient } from 'mongodb';
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { DeliveryTracker } from '../deliveries.ts';
import { retryUnavailable, times, type SetupCallOptions } from '../fixtures/agent-api.ts';
import { BENCH_WEBHOOK_SETTINGS, type GatewayStack } from '../fixtures/gateway-stack.ts';
import { callJson, onboardAgent, stringField } from '@handoff/devstack/gateway-client';
import { startReceiver, type Received } from '../fixtures/receiver.ts';
import {
  deliveredRequestId,
  endpointIndex,
  endpointPath,
  EVENT_INPUT,
} from '../fixtures/webhook-events.ts';
import { describeError, emptyMeasurement } from '../measure.ts';
import type { Fixture, Measurement, ObservedLoad, Scenario } from '../types.ts';

/** The sizes measured: endpoints of one integration, each subscribed to `request.created`. */
export const WEBHOOK_ENDPOINT_COUNTS = [1, 10, 100] as const;
/** Every this many deliveries (the first one included), the signature is checked. */
export const VERIFY_EVERY = 100;
/** The scope of each size's own integration key. */
const WEBHOOK_SCOPES = ['webhooks:manage'] as const;
const SETUP_CONCURRENCY = 8;
const CREATE_TIMEOUT_MS = 10_000;
/** How long an event's last delivery may take once the measurement runs. */
const DELIVERY_TIMEOUT_MS = 30_000;
/**
 * How long the warm-up's deliveries may take in setup: the dispatcher may still be working
 * through the events of the scenarios before (every request they created is an event to log).
 */
const CATCH_UP_TIMEOUT_MS = 120_000;
/** Where the stack keeps the dispatcher's data (see packages/devstack). */
const DISPATCHER_DB = 'handoff_webhook_dispatcher';
/** Any valid hash will do: the bench never uses the requests' tokens. */
const TOKEN_HASH = createHash('sha256').update('bench webhook deliveries').digest('hex');

/** Deliveries the run keeps under way: enough to fill the dispatcher's slots. */
const DELIVERIES_IN_FLIGHT = Number(BENCH_WEBHOOK_SETTINGS.WEBHOOK_CONCURRENCY);

/**
 * The events a size keeps in flight (its closed loops): enough that their deliveries fill the
 * dispatcher's slots, and no more, since every event in flight is one more that the end of the
 * measurement waits for, and each delivery's latency includes the queue of the others.
 */
export function eventsInFlight(endpoints: number): number {
  return Math.max(1, Math.ceil(DELIVERIES_IN_FLIGHT / endpoints));
}

/**
 * Checks a delivery as a receiver would: its Standard Webhooks signature with the endpoint's
 * secret, then that it is a `request.created` envelope with the `webhook-id` as its id. Throws,
 * saying what is wrong, otherwise.
 */
export function verifyDelivery(verifier: Webhook, received: Received): void {
  const header = (name: string) => {
    const value = received.headers[name];
    if (typeof value !== 'string') throw new Error(`a delivery without a ${name} header`);
    return value;
  };
  const headers = {
    'webhook-id': header('webhook-id'),
    'webhook-timestamp': header('webhook-timestamp'),
    'webhook-signature': header('webhook-signature'),
  };
  let payload: unknown;
  try {
    payload = verifier.verify(received.body, headers);
  } catch (error) {
    throw new Error(`the signature check failed: ${describeError(error)}`, { cause: error });
  }
  const envelope = EventEnvelope.safeParse(payload);
  if (!envelope.success) throw new Error('a signed delivery is not an event envelope');
  if (envelope.data.type !== 'request.created' || envelope.data.id !== headers['webhook-id']) {
    throw new Error(
      `a delivery of ${envelope.data.type} ${envelope.data.id} under webhook-id ${headers['webhook-id']}`,
    );
  }
}

/** The deliveries in the dispatcher's database (read only; a diagnostic for the progress lines). */
async function countDeliveries(mongoUrl: string): Promise<number> {
  const client = await MongoClient.connect(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  try {
    return await client.db(DISPATCHER_DB).collection('webhook_deliveries').countDocuments();
  } finally {
    await client.close();
  }
}

function recordError(measurement: Measurement, message: string, count = 1): void {
  measurement.errors += count;
  measurement.firstError ??= message;
}

/** `request.created` deliveries to `endpoints` endpoints on one receiver. */
export function webhookDeliveries(
  stack: Fixture<GatewayStack>,
  endpoints: number,
  logLevel: string,
  /** Appended to the name, for the same scenario on another stack (e.g. `-r3`). */
  suffix = '',
): Scenario {
  const inFlight = eventsInFlight(endpoints);
  const name = `webhook-deliveries-${endpoints}${suffix}`;
  return {
    name,
    connections: inFlight,
    // Setup runs a round of the load, which warms up every part of the path.
    warmupMs: 0,
    description:
      `webhook deliveries of request.created (intake create over NATS from the bench) to ${endpoints} endpoint(s) of one integration on one node:http receiver in the bench process answering 204; ` +
      `closed loop of ${inFlight} events, each waiting for all its deliveries; latency from the create call to the receipt; every ${VERIFY_EVERY}th signature checked; ` +
      `dispatcher WEBHOOK_CONCURRENCY=${BENCH_WEBHOOK_SETTINGS.WEBHOOK_CONCURRENCY}, WEBHOOK_ENDPOINT_CONCURRENCY=${BENCH_WEBHOOK_SETTINGS.WEBHOOK_ENDPOINT_CONCURRENCY}; shared full stack, LOG_LEVEL=${logLevel}`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const calls: SetupCallOptions = {
        signal: ctx.signal,
        onRetry: (reason) => ctx.progress(`${reason} (the stack is still busy)`),
      };
      ctx.progress('onboarding an integration of its own');
      const agent = await onboardAgent({
        appName: 'Bench',
        gatewayUrl: gateway.url,
        staffToken: gateway.staffToken,
        scopes: WEBHOOK_SCOPES,
        signal: ctx.signal,
      });
      const auth = { Authorization: `Bearer ${agent.api_key}` };

      // What the receiver finds wrong goes to the measurement under way (to setup's before).
      let sink = emptyMeasurement();
      const tracker = new DeliveryTracker(endpoints);
      const verifiers: (Webhook | undefined)[] = new Array<Webhook | undefined>(endpoints);
      let received = 0;
      let bodyBytes = 0;
      const receiver = await startReceiver((delivery) => {
        const index = endpointIndex(delivery.path);
        const verifier = index === null ? undefined : verifiers[index];
        if (index === null || verifier === undefined) {
          recordError(sink, `a POST to ${delivery.path}, where no endpoint of this run is`);
          return;
        }
        received += 1;
        bodyBytes = Buffer.byteLength(delivery.body);
        try {
          if (received % VERIFY_EVERY === 1) verifyDelivery(verifier, delivery);
          tracker.received(deliveredRequestId(delivery.body), index, delivery.receivedAt);
        } catch (error) {
          recordError(sink, describeError(error));
        }
      });
      ctx.teardown(() => receiver.close());

      ctx.progress(`registering ${endpoints} endpoint(s) at ${receiver.url}/hook/<n>`);
      const ids: (string | undefined)[] = new Array<string | undefined>(endpoints);
      // Deleting them cancels any delivery still pending, so nothing of this size lingers.
      ctx.teardown(async () => {
        const registered = ids.filter((id) => id !== undefined);
        await times(registered.length, SETUP_CONCURRENCY, (n) =>
          callJson(
            'delete a webhook endpoint',
            `${gateway.url}/v1/webhook-endpoints/${encodeURIComponent(registered[n] ?? '')}`,
            { method: 'DELETE', headers: auth, expect: 200 },
            undefined,
          ),
        );
      });
      await times(endpoints, SETUP_CONCURRENCY, async (index) => {
        const step = 'register a webhook endpoint';
        const created = await retryUnavailable(
          () =>
            callJson(
              step,
              `${gateway.url}/v1/webhook-endpoints`,
              {
                method: 'POST',
                headers: auth,
                body: {
                  url: `${receiver.url}${endpointPath(index)}`,
                  event_types: ['request.created'],
                },
                expect: 201,
              },
              ctx.signal,
            ),
          calls,
        );
        ids[index] = stringField(step, created, 'id');
        verifiers[index] = new Webhook(stringField(step, created, 'secret'));
      });

      // Every delivery the dispatcher ever made stays in its database, and on FerretDB over SQLite
      // (the local stack's) its queries of pending deliveries read them all: say how many.
      const history = await countDeliveries(gateway.mongoUrl);
      ctx.progress(`the dispatcher's database holds ${history} deliveries made before this size`);

      const nc = await connect({
        servers: gateway.natsUrl,
        user: gateway.natsUser,
        pass: gateway.natsPassword,
        name: `bench-${name}`,
      });
      ctx.teardown(() => nc.close());
      const createEvent = async () => {
        const created = await call(
          nc,
          requestOps.create,
          { integration_id: agent.integration_id, token_hash: TOKEN_HASH, input: EVENT_INPUT },
          { timeoutMs: CREATE_TIMEOUT_MS },
        );
        return created.id;
      };

      // The warm-up: one round of the load (every endpoint, its connection, every step of the
      // dispatcher), which also waits for the dispatcher to catch up with earlier events.
      ctx.progress(
        `warming up: ${inFlight} event(s) to every endpoint (waiting for the dispatcher to catch up)`,
      );
      const warmup = emptyMeasurement();
      sink = warmup;
      const warmupStarted = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          const sentAt = process.hrtime.bigint();
          await tracker.expect(await createEvent(), sentAt, warmup, {
            timeoutMs: CATCH_UP_TIMEOUT_MS,
            signal: ctx.signal,
          });
        }),
      );
      const strays = tracker.takeStrays();
      if (strays > 0) recordError(warmup, `${strays} deliveries of events this run did not make`);
      if (warmup.errors > 0) throw new Error(`warming up: ${warmup.firstError ?? 'errors'}`);
      ctx.progress(
        `warm: ${warmup.ok} deliveries in ${((performance.now() - warmupStarted) / 1_000).toFixed(1)} s; ` +
          `a delivery is ${bodyBytes} bytes`,
      );

      let loops: Promise<void>[] = [];
      let stopping = false;
      const load: ObservedLoad = {
        kind: 'observed',
        start(measurement, options) {
          sink = measurement;
          stopping = false;
          const loop = async () => {
            while (!stopping && !options.signal?.aborted) {
              const sentAt = process.hrtime.bigint();
              let requestId: string;
              try {
                requestId = await createEvent();
              } catch (error) {
                recordError(measurement, `create: ${describeError(error)}`);
                await yieldToLoop();
                continue;
              }
              await tracker.expect(requestId, sentAt, measurement, {
                timeoutMs: DELIVERY_TIMEOUT_MS,
                ...(options.signal ? { signal: options.signal } : {}),
              });
            }
          };
          loops = Array.from({ length: options.connections }, loop);
        },
        async stop() {
          stopping = true;
          await Promise.all(loops);
          const late = tracker.takeStrays();
          if (late > 0) {
            recordError(
              sink,
              `${late} deliveries of events no longer waited for (duplicates, or late)`,
              late,
            );
          }
        },
      };
      return load;
    },
  };
}
