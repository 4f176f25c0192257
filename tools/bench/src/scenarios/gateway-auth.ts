// The cost of authentication: two in-gateway JSON handlers on the same stack, one public and one
// that needs an agent key. Both increment one rate-limit counter in JetStream per call, so their
// difference is the key check (offline, then by hash over the bus, cached per gateway).
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import type { Fixture, Scenario } from '../types.ts';

/** `GET /v1/capabilities`: public, the per-address rate-limit counter, then a static JSON. */
export function gatewayPublic(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'gateway-public',
    description: `gateway GET /v1/capabilities (public; per-address rate-limit counter in JetStream), shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const { url } = await ctx.use(stack);
      return { kind: 'http', url: `${url}/v1/capabilities`, expectStatus: 200 };
    },
  };
}

/** `GET /v1/me` with the onboarded agent key: authentication, the per-key counter, a small JSON. */
export function gatewayAuthenticated(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'gateway-authenticated',
    description: `gateway GET /v1/me with an agent key (key check, cached; per-key rate-limit counter in JetStream), shared full stack, LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const { url, agent } = await ctx.use(stack);
      return {
        kind: 'http',
        url: `${url}/v1/me`,
        headers: { Authorization: `Bearer ${agent.api_key}` },
        expectStatus: 200,
      };
    },
  };
}
