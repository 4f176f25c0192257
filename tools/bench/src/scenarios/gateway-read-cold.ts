// The agent's read of a request that the gateway does not hold: `GET /v1/request/{id}` as
// gateway-read makes it, but a different request each call, going round a pool made in setup
// (fixtures/cold-pool.ts) large enough that no request comes back while the gateway's request
// cache still holds its last read. Each call then loads the request, its conversation and its
// approved payments; the token check's owner is warm, as for an agent that polls its request.
import {
  coldPool,
  coldPoolSize,
  CACHE_WINDOW_MS,
  COLD_POOL_VARIABLE,
} from '../fixtures/cold-pool.ts';
import { setupCalls } from '../fixtures/agent-api.ts';
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { KeepAliveClient } from '../keep-alive-client.ts';
import type { CallLoad, Fixture, Scenario, ScenarioContext } from '../types.ts';
import { AGENT_API_CONNECTIONS } from './gateway-requests.ts';

/**
 * A closed loop of reads over the stack's cold pool, with two figures recorded at teardown: the
 * pool's size, and the reads (warm-up and measured) that came back to a request within the cache's
 * window (0 when every one missed it).
 */
export async function coldReadLoad(
  ctx: ScenarioContext,
  stack: Fixture<GatewayStack>,
): Promise<CallLoad> {
  const size = coldPoolSize(ctx.env);
  const gateway = await ctx.use(stack);
  const pool = await coldPool(gateway, size, {
    ...setupCalls(ctx),
    progress: ctx.progress,
  });
  const client = new KeepAliveClient(gateway.urls, ctx.connections);
  ctx.teardown(() => client.close());
  const repeatsBefore = pool.reads.repeats;
  ctx.teardown(() => {
    ctx.figure({ name: 'requests in the pool', value: pool.reads.size, unit: 'requests' });
    ctx.figure({
      name: `reads back within ${CACHE_WINDOW_MS / 1_000} s`,
      value: pool.reads.repeats - repeatsBefore,
      unit: 'reads',
      note: `should be 0 (every read missed the gateway's request cache); otherwise raise ${COLD_POOL_VARIABLE}`,
    });
  });
  ctx.progress(`reading ${pool.reads.size} requests in turn`);
  return {
    kind: 'call',
    async call() {
      const turn = pool.reads.take();
      await pool.read(client, turn.item);
      turn.done();
    },
  };
}

/** `GET /v1/request/{id}`, a different request each call, none held by the gateway's cache. */
export function gatewayReadCold(stack: Fixture<GatewayStack>, logLevel: string): Scenario {
  return {
    name: 'gateway-read-cold',
    connections: AGENT_API_CONNECTIONS,
    description: `gateway GET /v1/request/{id} with an agent key and the request token, a different request each call (${COLD_POOL_VARIABLE} of them, made in setup and read in turn, none again within the gateway's ${CACHE_WINDOW_MS / 1_000} s request cache), no messages, shared full stack, LOG_LEVEL=${logLevel}; closed loop`,
    uses: [stack],
    setup: (ctx) => coldReadLoad(ctx, stack),
  };
}
