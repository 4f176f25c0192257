// The growth scenario: create, read (hot and cold), message and a webhook delivery, each measured
// exactly as its own scenario measures it, once the stack's databases hold N existing requests, messages and
// webhook events, deliveries and attempts (of another integration), for each N in turn. What it
// shows is whether a call's cost depends on how much data there is: a query without a usable
// index, or a scan over the whole log of deliveries, grows with N. The deliveries are of events
// the bench publishes onto the bus itself (as webhook-deliveries-1 does), so their cost against
// N is the dispatcher's alone, not intake's create.
//
// Sizes go up; before each size's first scenario the preload tops the collections up (1k, then 9k
// more, then 90k more, then 900k more), so one run measures every size against the same stack.
// The cold read goes round one pool of requests made through the API at the first size
// (BENCH_COLD_POOL of them, fixtures/cold-pool.ts) and read again at each later one: the larger
// sizes read the same documents among more of them, and add no more requests of their own. The documents the
// measured calls themselves create stay too: they are counted in none of the sizes, and at
// BENCH_DURATION_S=10 they are a few thousand at most.
import { natsConnectionOptions } from '@handoff/bus';
import { REQUEST_VIEWS } from '@handoff/contracts';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { MongoClient } from 'mongodb';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { preloadTo } from '../fixtures/preload.ts';
import {
  GROWTH_GROUP,
  GROWTH_OPERATIONS,
  growthScenarioName,
  type GrowthOperation,
  type PreloadRecord,
} from '../growth.ts';
import type { Fixture, Scenario, ScenarioContext } from '../types.ts';
import { gatewayReadCold } from './gateway-read-cold.ts';
import { gatewayCreate, gatewayMessage, gatewayRead } from './gateway-requests.ts';
import { webhookDeliveries } from './webhook-deliveries.ts';

/** The endpoints of the measured webhook deliveries: one, the smallest of the webhook scenarios. */
export const GROWTH_WEBHOOK_ENDPOINTS = 1;

/** Every growth scenario in run order: each size, smallest first, every operation at it. */
export function growthScenarios(
  stack: Fixture<GatewayStack>,
  sizes: readonly number[],
  logLevel: string,
  preloads: PreloadRecord[],
): Scenario[] {
  const base: Record<GrowthOperation, Scenario> = {
    create: gatewayCreate(stack, logLevel),
    read: gatewayRead(stack, logLevel),
    'read-cold': gatewayReadCold(stack, logLevel),
    message: gatewayMessage(stack, logLevel),
    webhook: webhookDeliveries(stack, GROWTH_WEBHOOK_ENDPOINTS, logLevel),
  };
  // The size each stack's database was last topped up to: the later scenarios of a size skip
  // counting the collections again (slow on FerretDB/SQLite once they are large).
  const reached = new Map<string, number>();
  const preload = async (ctx: ScenarioContext, size: number) => {
    const gateway = await ctx.use(stack);
    const { mongoUrl } = gateway;
    if ((reached.get(mongoUrl) ?? 0) >= size) {
      ctx.progress(`${size} existing of each: preloaded already`);
      return;
    }
    const client = new MongoClient(mongoUrl, {
      appName: 'handoff-bench-preload',
      serverSelectionTimeoutMS: 10_000,
      retryWrites: false,
    });
    // The gateway's views go with the requests: a cold read looks its view up among as many.
    const nc = await connect(
      natsConnectionOptions({
        url: gateway.natsUrl,
        user: gateway.natsUser,
        password: gateway.natsPassword,
        name: 'bench-preload',
      }),
    );
    try {
      await client.connect();
      const views = await new Kvm(nc).open(REQUEST_VIEWS.bucket);
      const started = performance.now();
      const steps = await preloadTo(client, size, {
        signal: ctx.signal,
        progress: ctx.progress,
        views,
      });
      const ms = Math.round(performance.now() - started);
      reached.set(mongoUrl, size);
      const inserted = steps.reduce((sum, step) => sum + step.inserted, 0);
      // Only the scenario that did the work records it; the others of the size find it done.
      if (inserted > 0 || !preloads.some((record) => record.size === size)) {
        preloads.push({ size, steps, ms });
      }
      ctx.progress(`${size} existing of each: ${inserted} documents inserted in ${ms} ms`);
    } finally {
      await client.close();
      await nc.close();
    }
  };
  return [...sizes]
    .sort((a, b) => a - b)
    .flatMap((size) =>
      GROWTH_OPERATIONS.map((operation): Scenario => {
        const scenario = base[operation];
        return {
          ...scenario,
          name: growthScenarioName(size, operation),
          group: GROWTH_GROUP,
          description: `${scenario.name} with ${size} existing requests, messages and webhook events/deliveries/attempts of another integration preloaded: ${scenario.description}`,
          async setup(ctx) {
            await preload(ctx, size);
            return scenario.setup(ctx);
          },
        };
      }),
    );
}
