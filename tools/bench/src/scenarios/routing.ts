// Automatic routing on a stack of its own: agents create requests as in gateway-create, and each
// counts once intake's rules have offered it to a provider. The path: the gateway's create (intake
// stores the request with `request.created`), intake's routing consumer takes that event, weighs
// the providers of the request's category (50 of them here), holds the chosen one's capacity and
// writes the offer with its `request.updated`, which the outbox publishes.
//
// Its stack is not the shared one: its gateway takes 20 categories from a SERVICE_CATEGORIES_FILE
// the bench writes, and its 1,000 providers would be offered every request the shared stack's
// later scenarios create.
import { ROUTING_LIMITS } from '@handoff/contracts';
import { stringField } from '@handoff/devstack/gateway-client';
import { CREATE_BODY, setupCalls, stackCall, times } from '../fixtures/agent-api.ts';
import { gatewayStack, type GatewayStack } from '../fixtures/gateway-stack.ts';
import { watchOffers } from '../fixtures/offer-watch.ts';
import { ROUTING_CATEGORIES, writeCategoriesFile } from '../fixtures/routing-categories.ts';
import { KeepAliveClient } from '../keep-alive-client.ts';
import type { CallLoad, Fixture, Scenario, ScenarioContext } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';

/** The providers seeded, spread evenly over {@link ROUTING_CATEGORIES}. */
export const ROUTING_PROVIDERS = 1_000;
/**
 * Each provider's capacity: the most allowed, so that the run never fills a category (50 × 50
 * requests each, where a run offers a few hundred per category).
 */
export const PROVIDER_CAPACITY = ROUTING_LIMITS.capacity;
/** How long a created request may wait for its offer before it counts as an error. */
export const OFFER_TIMEOUT_MS = 30_000;
/** Providers created at once in setup. */
const SEED_CONCURRENCY = 8;

/** The stack of the routing scenario: the shared stack's settings and 20 categories. */
export function routingStack(logLevel: string): Fixture<GatewayStack> {
  return gatewayStack(logLevel, {
    name: 'routing-stack',
    env: (dataDir) => ({ SERVICE_CATEGORIES_FILE: writeCategoriesFile(dataDir) }),
  });
}

/** The category of the `index`-th provider or request: round the list. */
export function categoryOf(index: number): string {
  const category = ROUTING_CATEGORIES[index % ROUTING_CATEGORIES.length];
  if (!category) throw new Error('no routing categories');
  return category.slug;
}

/** Checks that the gateway took the bench's categories (the file is its, not the built-in one). */
async function checkCategories(stack: GatewayStack, ctx: ScenarioContext): Promise<void> {
  const listed = await stackCall(
    stack,
    'list the service categories',
    '/v1/services',
    { method: 'GET', expect: 200 },
    setupCalls(ctx),
  );
  const data = Array.isArray(listed.data) ? (listed.data as unknown[]) : [];
  if (data.length !== ROUTING_CATEGORIES.length) {
    throw new Error(
      `the gateway lists ${data.length} service categories, not the ${ROUTING_CATEGORIES.length} of SERVICE_CATEGORIES_FILE`,
    );
  }
}

/** `POST /v1/staff/providers` {@link ROUTING_PROVIDERS} times, the categories in turn. */
async function seedProviders(stack: GatewayStack, ctx: ScenarioContext): Promise<void> {
  const perCategory = ROUTING_PROVIDERS / ROUTING_CATEGORIES.length;
  ctx.progress(
    `creating ${ROUTING_PROVIDERS} providers, ${perCategory} in each of ${ROUTING_CATEGORIES.length} categories, capacity ${PROVIDER_CAPACITY} (not measured)`,
  );
  const started = performance.now();
  const calls = setupCalls(ctx);
  await times(ROUTING_PROVIDERS, SEED_CONCURRENCY, (index) =>
    stackCall(
      stack,
      'create a provider',
      '/v1/staff/providers',
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.staffToken}` },
        body: {
          name: `Bench provider ${index + 1}`,
          email: `provider-${index + 1}@example.com`,
          categories: [categoryOf(index)],
          capacity: PROVIDER_CAPACITY,
        },
        expect: 201,
      },
      calls,
    ),
  );
  ctx.progress(`created them in ${((performance.now() - started) / 1_000).toFixed(1)} s`);
}

/**
 * Create-to-offer: every call creates a request (the categories in turn) through the gateway and
 * resolves once its offer's `request.updated` reached the bench; a closed loop at gateway-create's
 * concurrency, so its rate is offers per second.
 */
export function routing(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'routing',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway POST /v1/ai-to-human-request until intake's rules offered the request to a provider (its request.updated, status routed, seen on the bus), ${ROUTING_PROVIDERS} providers in ${ROUTING_CATEGORIES.length} categories, a stack of its own, LOG_LEVEL=${logLevel}; closed loop`,
    uses: [stack],
    async setup(ctx): Promise<CallLoad> {
      const gateway = await ctx.use(stack);
      await checkCategories(gateway, ctx);
      await seedProviders(gateway, ctx);
      const watch = await watchOffers(gateway, 'bench-routing');
      ctx.teardown(() => watch.close());
      const client = new KeepAliveClient(gateway.urls, ctx.connections);
      ctx.teardown(() => client.close());
      const headers = { Authorization: `Bearer ${gateway.agent.api_key}` };
      let next = 0;
      return {
        kind: 'call',
        async call() {
          const category = categoryOf(next);
          next += 1;
          const created = await client.call({
            method: 'POST',
            path: '/v1/ai-to-human-request',
            headers,
            body: { ...CREATE_BODY, category },
            expect: 201,
          });
          const id = stringField('create a request', created, 'id');
          await watch.tracker.offered(id, OFFER_TIMEOUT_MS);
        },
      };
    },
  };
}
