// Webhook deliveries end to end on the shared stack: the bench publishes `request.created` events
// straight onto JetStream, as a service's outbox does (fixtures/event-source.ts), the webhook
// dispatcher consumes each event (its owner named in a header), logs it, queues one delivery per
// subscribed endpoint and sends each as a signed POST; one receiver in the bench process takes
// them all. No other service is on the path, so the figures are the dispatcher's.
//
// Each scenario has an integration of its own (onboarded in setup), with its endpoints deleted
// when it is torn down, and every event's deliveries are waited for before the measurement ends:
// so one scenario's events never reach (or still occupy the dispatcher during) the next one's.
// The scenarios here measure the dispatcher's peak; webhook-latency.ts measures the latency at
// half of it, on the same setup.
import { natsConnectionOptions } from '@handoff/bus';
import { EventEnvelope } from '@handoff/contracts';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { MongoClient } from 'mongodb';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { DeliveryTracker } from '../deliveries.ts';
import { setupCalls, stackCall, times, type SetupCallOptions } from '../fixtures/agent-api.ts';
import { eventSource, type EventSource } from '../fixtures/event-source.ts';
import { BENCH_WEBHOOK_SETTINGS, type GatewayStack } from '../fixtures/gateway-stack.ts';
import { callJson, onboardAgent, stringField } from '@handoff/devstack/gateway-client';
import { startReceiver, type Received } from '@handoff/testkit';
import { deliveredRequestId, endpointIndex, endpointPath } from '../fixtures/webhook-events.ts';
import { describeError, emptyMeasurement } from '../measure.ts';
import type { Fixture, Measurement, ObservedLoad, Scenario, ScenarioContext } from '../types.ts';

/** The sizes measured: endpoints of one integration, each subscribed to `request.created`. */
export const WEBHOOK_ENDPOINT_COUNTS = [1, 10, 100] as const;
/** Every this many deliveries (the first one included), the signature is checked. */
export const VERIFY_EVERY = 100;
/** The scope of each scenario's own integration key. */
const WEBHOOK_SCOPES = ['webhooks:manage'] as const;
const SETUP_CONCURRENCY = 8;
/** How long an event's last delivery may take once the measurement runs. */
export const DELIVERY_TIMEOUT_MS = 30_000;
/**
 * How long the warm-up's deliveries may take in setup: the dispatcher may still be working
 * through the events of the scenarios before (every request they created is an event to log).
 */
const CATCH_UP_TIMEOUT_MS = 120_000;
/** Where the stack keeps the dispatcher's data (see tools/devstack). */
const DISPATCHER_DB = 'handoff_webhook_dispatcher';

/**
 * Deliveries the peak keeps under way: four times the dispatcher's slots (its
 * WEBHOOK_CONCURRENCY). With only as many as its slots, each slot would sit idle from its
 * delivery's receipt until the loop's next event had been published, consumed, logged and queued;
 * with four times as many, the dispatcher always has work queued and is the limit. The price is
 * queueing in the peak's latency, which is why the latency is measured apart, at half the peak.
 */
export const PEAK_DELIVERIES_IN_FLIGHT = 4 * Number(BENCH_WEBHOOK_SETTINGS.WEBHOOK_CONCURRENCY);

/** The events the peak keeps in flight (its closed loops): at least one, each to every endpoint. */
export function eventsInFlight(endpoints: number): number {
  return Math.max(1, Math.ceil(PEAK_DELIVERIES_IN_FLIGHT / endpoints));
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

export function recordError(measurement: Measurement, message: string, count = 1): void {
  measurement.errors += count;
  measurement.firstError ??= message;
}

/**
 * What a webhook scenario sets up: an integration of its own with `endpoints` endpoints on one
 * receiver, the tracker of their deliveries and the source of its events, warmed up.
 */
export interface DeliveryRig {
  tracker: DeliveryTracker;
  source: EventSource;
  /** From now on, what the receiver finds wrong is recorded into `measurement`. */
  recordInto(measurement: Measurement): void;
  /**
   * Counts the deliveries no event waits for any more (duplicates, or late ones) as errors of
   * the measurement under way, once its events have all been waited for.
   */
  settle(): void;
}

/**
 * Registers an endpoint for each of `verifiers` at the receiver (deleted at teardown), and keeps
 * the verifier of each one's signing secret.
 */
export async function registerEndpoints(
  ctx: ScenarioContext,
  gateway: GatewayStack,
  auth: Record<string, string>,
  receiverUrl: string,
  verifiers: (Webhook | undefined)[],
  calls: SetupCallOptions,
): Promise<void> {
  const endpoints = verifiers.length;
  ctx.progress(`registering ${endpoints} endpoint(s) at ${receiverUrl}/hook/<n>`);
  const ids: (string | undefined)[] = new Array<string | undefined>(endpoints);
  // Deleting them cancels any delivery still pending, so nothing of this scenario lingers.
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
    const created = await stackCall(
      gateway,
      step,
      '/v1/webhook-endpoints',
      {
        method: 'POST',
        headers: auth,
        body: { url: `${receiverUrl}${endpointPath(index)}`, event_types: ['request.created'] },
        expect: 201,
      },
      calls,
    );
    ids[index] = stringField(step, created, 'id');
    verifiers[index] = new Webhook(stringField(step, created, 'secret'));
  });
}

/**
 * `eventsInFlight(endpoints)` events to every endpoint (every step of the dispatcher, every
 * connection), which also waits for the dispatcher to catch up with the events of the scenarios
 * before; what goes wrong is recorded into `warmup`, and fails the set-up.
 */
async function warmUp(
  ctx: ScenarioContext,
  tracker: DeliveryTracker,
  source: EventSource,
  endpoints: number,
  warmup: Measurement,
): Promise<void> {
  const warmupEvents = eventsInFlight(endpoints);
  ctx.progress(
    `warming up: ${warmupEvents} event(s) to every endpoint (waiting for the dispatcher to catch up)`,
  );
  const warmupStarted = performance.now();
  await Promise.all(
    Array.from({ length: warmupEvents }, async () => {
      const sentAt = process.hrtime.bigint();
      await tracker.expect(await source.publish(), sentAt, warmup, {
        timeoutMs: CATCH_UP_TIMEOUT_MS,
        signal: ctx.signal,
      });
    }),
  );
  const strays = tracker.takeStrays();
  if (strays > 0) recordError(warmup, `${strays} deliveries of events this run did not make`);
  if (warmup.errors > 0) throw new Error(`warming up: ${warmup.firstError ?? 'errors'}`);
  ctx.progress(
    `warm: ${warmup.ok} deliveries in ${((performance.now() - warmupStarted) / 1_000).toFixed(1)} s`,
  );
}

/**
 * Onboards an integration, starts the receiver, registers the endpoints (deleted at teardown),
 * connects the event source and warms up: `eventsInFlight(endpoints)` events to every endpoint
 * (every step of the dispatcher, every connection), which also waits for the dispatcher to catch
 * up with the events of the scenarios before.
 */
export async function setUpDeliveries(
  ctx: ScenarioContext,
  stack: Fixture<GatewayStack>,
  endpoints: number,
  name: string,
  /** How long the receiver takes to answer each delivery (0: at once). */
  answerDelayMs = 0,
): Promise<DeliveryRig> {
  const gateway = await ctx.use(stack);
  const calls = setupCalls(ctx);
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
  const receiver = await startReceiver(
    (delivery) => {
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
    },
    { delayMs: answerDelayMs },
  );
  ctx.teardown(() => receiver.close());

  await registerEndpoints(ctx, gateway, auth, receiver.url, verifiers, calls);

  // Finished deliveries stay in the dispatcher's database until they expire: say how many, as a
  // scan over them would show in the figures.
  const history = await countDeliveries(gateway.mongoUrl);
  ctx.progress(`the dispatcher's database holds ${history} deliveries made before this scenario`);

  // The stack's all-access user: NATS lets only the services (and it) publish events. Connected
  // as a service's outbox publisher is (the bus's options), so its publishes cost what theirs do.
  const nc = await connect(
    natsConnectionOptions({
      url: gateway.natsUrl,
      user: gateway.natsUser,
      password: gateway.natsPassword,
      name: `bench-${name}`,
    }),
  );
  ctx.teardown(() => nc.close());
  const source = eventSource(jetstream(nc), agent.integration_id);

  sink = emptyMeasurement();
  await warmUp(ctx, tracker, source, endpoints, sink);
  ctx.progress(`a delivery is ${bodyBytes} bytes`);

  return {
    tracker,
    source,
    recordInto(measurement) {
      sink = measurement;
    },
    settle() {
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
}

/** The dispatcher's settings every webhook scenario names in its description. */
export function dispatcherSettings(logLevel: string): string {
  return (
    `dispatcher WEBHOOK_CONCURRENCY=${BENCH_WEBHOOK_SETTINGS.WEBHOOK_CONCURRENCY}, ` +
    `WEBHOOK_ENDPOINT_CONCURRENCY=${BENCH_WEBHOOK_SETTINGS.WEBHOOK_ENDPOINT_CONCURRENCY}, ` +
    `WEBHOOK_ENDPOINT_CONCURRENCY_MAX=${BENCH_WEBHOOK_SETTINGS.WEBHOOK_ENDPOINT_CONCURRENCY_MAX}; ` +
    `shared full stack, LOG_LEVEL=${logLevel}`
  );
}

/**
 * The dispatcher's peak: `request.created` deliveries to `endpoints` endpoints on one receiver,
 * in a closed loop with {@link PEAK_DELIVERIES_IN_FLIGHT} deliveries under way.
 */
export function webhookDeliveries(
  stack: Fixture<GatewayStack>,
  endpoints: number,
  logLevel: string,
  options: {
    /** Appended to the name, for the same scenario on another stack (e.g. `-r3`). */
    suffix?: string;
    /** How long the receiver takes to answer each delivery (0: at once). */
    answerDelayMs?: number;
  } = {},
): Scenario {
  const inFlight = eventsInFlight(endpoints);
  const answerDelayMs = options.answerDelayMs ?? 0;
  const name = `webhook-deliveries-${endpoints}${options.suffix ?? ''}`;
  const receiverNote =
    answerDelayMs === 0
      ? 'answering 204'
      : `answering 204 after ${answerDelayMs} ms (a receiver that does work first: fixed at WEBHOOK_ENDPOINT_CONCURRENCY=${BENCH_WEBHOOK_SETTINGS.WEBHOOK_ENDPOINT_CONCURRENCY} slots, one endpoint could take at most ${Math.round((Number(BENCH_WEBHOOK_SETTINGS.WEBHOOK_ENDPOINT_CONCURRENCY) * 1_000) / answerDelayMs)}/s)`;
  return {
    name,
    connections: inFlight,
    // Setup runs a round of the load, which warms up every part of the path.
    warmupMs: 0,
    description:
      `webhook deliveries of request.created (published by the bench onto JetStream as a service's outbox does) to ${endpoints} endpoint(s) of one integration on one node:http receiver in the bench process ${receiverNote}; ` +
      `the dispatcher's peak: closed loop of ${inFlight} events, each waiting for all its deliveries (${inFlight * endpoints} deliveries in flight, 4x WEBHOOK_CONCURRENCY, so that the dispatcher, not the loop, is the limit); ` +
      `latency from the publish to the receipt; every ${VERIFY_EVERY}th signature checked; ${dispatcherSettings(logLevel)}`,
    uses: [stack],
    async setup(ctx) {
      const rig = await setUpDeliveries(ctx, stack, endpoints, name, answerDelayMs);
      let loops: Promise<void>[] = [];
      let stopping = false;
      const load: ObservedLoad = {
        kind: 'observed',
        start(measurement, options) {
          rig.recordInto(measurement);
          stopping = false;
          const loop = async () => {
            while (!stopping && !options.signal?.aborted) {
              const sentAt = process.hrtime.bigint();
              let requestId: string;
              try {
                requestId = await rig.source.publish();
              } catch (error) {
                recordError(measurement, `publish: ${describeError(error)}`);
                await yieldToLoop();
                continue;
              }
              await rig.tracker.expect(requestId, sentAt, measurement, {
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
          rig.settle();
        },
      };
      return load;
    },
  };
}
