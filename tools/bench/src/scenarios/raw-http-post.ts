import http from 'node:http';
import { BENCH_WEBHOOK_SETTINGS } from '../fixtures/gateway-stack.ts';
import { startReceiver } from '@handoff/testkit';
import { postOnce } from '../fixtures/receiver.ts';
import { deliveredRequestId, endpointPath, sampleEnvelope } from '../fixtures/webhook-events.ts';
import type { Scenario } from '../types.ts';

/** As many POSTs at once as the webhook dispatcher makes deliveries. */
export const RAW_POST_CONNECTIONS = Number(BENCH_WEBHOOK_SETTINGS.WEBHOOK_CONCURRENCY);
const TIMEOUT_MS = 15_000;

/**
 * The floor of the webhook scenarios: one process POSTing a delivery-sized JSON body over
 * keep-alive node:http connections, as the dispatcher does, to the same kind of receiver (which
 * parses each body, as the webhook scenarios' receiver does), with nothing else in between.
 */
export const rawHttpPost: Scenario = {
  name: 'raw-http-post',
  connections: RAW_POST_CONNECTIONS,
  description: `node:http POST of a ${Buffer.byteLength(sampleEnvelope())}-byte event envelope with webhook headers to a node:http receiver answering 204, both in the bench process, keep-alive; closed loop`,
  async setup(ctx) {
    // Reads each body as the webhook scenarios' receiver does; one it cannot read counts.
    const receiver = await startReceiver((received) => deliveredRequestId(received.body));
    ctx.teardown(() => receiver.close());
    ctx.teardown(() => {
      if (receiver.failures.length > 0) {
        throw new Error(`the receiver could not read ${receiver.failures.length} bodies`);
      }
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: ctx.connections });
    ctx.teardown(() => agent.destroy());
    const url = new URL(endpointPath(0), receiver.url);
    const body = Buffer.from(sampleEnvelope(), 'utf8');
    // The same header set a delivery carries (the signature is not computed: a raw POST).
    const headers = {
      'webhook-id': 'evt_01JBENCHRAWHTTPPOST0000000',
      'webhook-timestamp': String(Math.floor(Date.now() / 1_000)),
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
      'user-agent': 'Handoff-Webhooks/1.0',
    };
    return {
      kind: 'call',
      call: () => postOnce(url, body, { agent, headers, timeoutMs: TIMEOUT_MS }),
    };
  },
};
