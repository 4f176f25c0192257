import type { Fixture, Scenario } from '../types.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';

/**
 * The gateway's readiness fan-out with the whole system running as separate processes, as
 * `npm start` runs it: each `GET /readyz` asks the five backend services for their health over
 * NATS, all at once. No rate limit or authentication applies to `/readyz`.
 */
export function gatewayReadyz(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'gateway-readyz',
    description: `gateway GET /readyz (fan-out to 5 services over NATS), full stack as 6 processes + NATS + DB (shared), LOG_LEVEL=${logLevel}; autocannon`,
    uses: [stack],
    async setup(ctx) {
      const { url } = await ctx.use(stack);
      return { kind: 'http', url: `${url}/readyz`, expectStatus: 200 };
    },
  };
}
