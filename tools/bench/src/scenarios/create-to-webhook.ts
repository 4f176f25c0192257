// From an agent's create to its integration's webhook: agents create requests through the
// gateway, as gateway-create does, for an integration with one webhook endpoint subscribed to
// `request.created` (on a receiver in the bench process), and each create counts once its event
// has been delivered there. The whole path: the gateway, intake's insert with its event and the
// publish, the webhook dispatcher's consume, its feed entry and the signed POST.
//
// The integration is one of its own, onboarded in setup with its endpoint deleted at teardown, so
// no other scenario's creates reach it and none of its events outlive it.
import { onboardAgent } from '@handoff/devstack/gateway-client';
import { startReceiver } from '@handoff/testkit';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Webhook } from 'standardwebhooks';
import { DeliveryTracker } from '../deliveries.ts';
import { CREATE_BODY, setupCalls } from '../fixtures/agent-api.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { deliveredRequestId, endpointIndex } from '../fixtures/webhook-events.ts';
import { KeepAliveClient } from '../keep-alive-client.ts';
import { describeError, emptyMeasurement } from '../measure.ts';
import type { Fixture, Measurement, ObservedLoad, Scenario, ScenarioContext } from '../types.ts';
import {
  DELIVERY_TIMEOUT_MS,
  dispatcherSettings,
  recordError,
  registerEndpoints,
  verifyDelivery,
} from './webhook-deliveries.ts';

/** Agents creating at once. */
export const CREATE_TO_WEBHOOK_CONNECTIONS = 16;
/** Creates in setup, each waiting for its webhook: every step of the path, warm. */
const WARMUP_CREATES = 4 * CREATE_TO_WEBHOOK_CONNECTIONS;
/** How long the warm-up's webhooks may take (the dispatcher may still be catching up). */
const CATCH_UP_TIMEOUT_MS = 120_000;
const SCOPES = ['requests:create', 'webhooks:manage'] as const;

/** What setup makes: the integration's key, its receiver's deliveries, and their sink. */
interface Rig {
  client: KeepAliveClient;
  apiKey: string;
  tracker: DeliveryTracker;
  /** From now on, what the receiver finds wrong is recorded into `measurement`. */
  recordInto(measurement: Measurement): void;
}

/** Onboards the integration, starts the receiver and registers its endpoint. */
async function setUpRig(ctx: ScenarioContext, gateway: GatewayStack): Promise<Rig> {
  const calls = setupCalls(ctx);
  ctx.progress('onboarding an integration of its own');
  const agent = await onboardAgent({
    appName: 'Bench',
    gatewayUrl: gateway.url,
    staffToken: gateway.staffToken,
    scopes: SCOPES,
    signal: ctx.signal,
  });
  let sink = emptyMeasurement();
  const tracker = new DeliveryTracker(1);
  const verifiers: (Webhook | undefined)[] = [undefined];
  const receiver = await startReceiver((delivery) => {
    const verifier = endpointIndex(delivery.path) === 0 ? verifiers[0] : undefined;
    if (verifier === undefined) {
      recordError(sink, `a POST to ${delivery.path}, where no endpoint of this run is`);
      return;
    }
    try {
      // Every one: at create rates the check costs the bench little.
      verifyDelivery(verifier, delivery);
      tracker.received(deliveredRequestId(delivery.body), 0, delivery.receivedAt);
    } catch (error) {
      recordError(sink, describeError(error));
    }
  });
  ctx.teardown(() => receiver.close());
  const auth = { Authorization: `Bearer ${agent.api_key}` };
  await registerEndpoints(ctx, gateway, auth, receiver.url, verifiers, calls);
  const client = new KeepAliveClient(gateway.urls, CREATE_TO_WEBHOOK_CONNECTIONS);
  ctx.teardown(() => client.close());
  return {
    client,
    apiKey: agent.api_key,
    tracker,
    recordInto(measurement) {
      sink = measurement;
    },
  };
}

/** `POST /v1/ai-to-human-request`; the new request's id. */
async function create(rig: Rig): Promise<string> {
  const created = await rig.client.call({
    method: 'POST',
    path: '/v1/ai-to-human-request',
    headers: { Authorization: `Bearer ${rig.apiKey}` },
    body: CREATE_BODY,
    expect: 201,
  });
  const { id } = created;
  if (typeof id !== 'string') throw new Error('a create answered without an id');
  return id;
}

/** {@link WARMUP_CREATES} creates, each waiting for its webhook; throws on anything wrong. */
async function warmUp(ctx: ScenarioContext, rig: Rig): Promise<void> {
  ctx.progress(`warming up: ${WARMUP_CREATES} creates, each waiting for its webhook`);
  const warmup = emptyMeasurement();
  rig.recordInto(warmup);
  await Promise.all(
    Array.from({ length: WARMUP_CREATES }, async () => {
      const sentAt = process.hrtime.bigint();
      const id = await create(rig);
      await rig.tracker.expect(id, sentAt, warmup, {
        timeoutMs: CATCH_UP_TIMEOUT_MS,
        signal: ctx.signal,
      });
    }),
  );
  const strays = rig.tracker.takeStrays();
  if (strays > 0) recordError(warmup, `${strays} deliveries of requests this run did not create`);
  if (warmup.errors > 0) throw new Error(`warming up: ${warmup.firstError ?? 'errors'}`);
}

const ms = (histogram: RecordableHistogram, percentile: number) =>
  histogram.count === 0 ? 0 : Math.round(histogram.percentile(percentile) / 1_000) / 1_000;

/**
 * The measured run: `connections` agents creating in a closed loop (each create expects its
 * webhook, not waited for by the loop); once they stop, every created request's webhook is waited
 * for (each at most {@link DELIVERY_TIMEOUT_MS}); one that never came fails the scenario.
 */
function createLoad(ctx: ScenarioContext, rig: Rig): ObservedLoad {
  let loops: Promise<void>[] = [];
  let waiting: Promise<void>[] = [];
  let stopping = false;
  let created = 0;
  let createStarted = 0;
  let createMs = 0;
  let answers: RecordableHistogram = createHistogram();
  let measured: Measurement = emptyMeasurement();
  return {
    kind: 'observed',
    start(measurement, options) {
      measured = measurement;
      rig.recordInto(measurement);
      answers = createHistogram();
      stopping = false;
      created = 0;
      createStarted = performance.now();
      const signal = options.signal ? { signal: options.signal } : {};
      const loop = async () => {
        while (!stopping && !options.signal?.aborted) {
          const sentAt = process.hrtime.bigint();
          try {
            const id = await create(rig);
            answers.record(Number(process.hrtime.bigint() - sentAt) || 1);
            created += 1;
            waiting.push(
              rig.tracker.expect(id, sentAt, measurement, {
                timeoutMs: DELIVERY_TIMEOUT_MS,
                ...signal,
              }),
            );
          } catch (error) {
            recordError(measurement, `create: ${describeError(error)}`);
            await yieldToLoop();
          }
        }
      };
      loops = Array.from({ length: options.connections }, loop);
    },
    async stop() {
      stopping = true;
      await Promise.all(loops);
      createMs = performance.now() - createStarted;
      ctx.progress(`${created} created; waiting for their webhooks`);
      await Promise.all(waiting);
      waiting = [];
      const strays = rig.tracker.takeStrays();
      if (strays > 0) {
        recordError(measured, `${strays} deliveries of requests no longer waited for`, strays);
      }
      const delivered = measured.ok;
      const missing = created - delivered;
      if (missing > 0) {
        measured.firstError = `${missing} of ${created} created requests' request.created webhooks did not arrive within ${DELIVERY_TIMEOUT_MS / 1_000} s of their create`;
      }
      ctx.figure({ name: 'created', value: created, unit: 'requests' });
      ctx.figure({
        name: 'delivered',
        value: delivered,
        unit: 'webhooks',
        note: missing > 0 ? `${missing} missing: FAILED` : 'every created request, once',
      });
      ctx.figure({
        name: 'created/s',
        value: Math.round((created * 1_000 * 10) / Math.max(1, createMs)) / 10,
        unit: 'req/s',
        note: "over the creates' window alone (req/s runs to the last webhook)",
      });
      ctx.figure({ name: 'create answered p50', value: ms(answers, 50), unit: 'ms' });
      ctx.figure({ name: 'create answered p99', value: ms(answers, 99), unit: 'ms' });
    },
  };
}

/** Creates of an integration whose one endpoint takes `request.created`, to their receipt. */
export function createToWebhook(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'create-to-webhook',
    connections: CREATE_TO_WEBHOOK_CONNECTIONS,
    // Setup creates and waits for webhooks: every step of the path, warm.
    warmupMs: 0,
    description:
      `gateway POST /v1/ai-to-human-request with the key of an integration whose one webhook endpoint (a node:http receiver in the bench process, answering 204) takes request.created, ${CREATE_TO_WEBHOOK_CONNECTIONS} agents in a closed loop of creates; ` +
      `req/s: requests created and delivered per second, up to the last webhook (each waited for at most ${DELIVERY_TIMEOUT_MS / 1_000} s, a missing one fails it); latency from sending the create to the receipt of its webhook, every signature checked; ${dispatcherSettings(logLevel)}`,
    uses: [stack],
    async setup(ctx) {
      const gateway = await ctx.use(stack);
      const rig = await setUpRig(ctx, gateway);
      await warmUp(ctx, rig);
      return createLoad(ctx, rig);
    },
  };
}
