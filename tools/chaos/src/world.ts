// The stack a chaos run works on and the people on it: the stack with `replicas` processes of
// every service, an agent with two webhook endpoints, providers with keys, and staff. Every
// client spreads its calls over all gateways, a retry going to any of them, as behind a load
// balancer.
import { SCOPES } from '@handoff/contracts';
import { startStack, waitUntilEveryReplicaReady, type Stack } from '@handoff/devstack';
import { onboardAgent } from '@handoff/devstack/gateway-client';
import {
  createHandoffClient,
  createProviderClient,
  createStaffClient,
  type HandoffClient,
  type ProviderClient,
  type RetryOptions,
  type StaffClient,
} from '@handoff/sdk';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Random } from './random.ts';
import type { EndpointMode, Receivers } from './receiver.ts';

/** The settings a chaos stack runs with: short webhook timeouts and retries, no rate limit in the way. */
export const CHAOS_STACK_ENV = {
  // An attempt that hangs ends in 4 s; retries come within seconds, so every delivery a fault
  // held back arrives within the run's drain (the production schedule spans days).
  WEBHOOK_TIMEOUT_MS: '4000',
  WEBHOOK_RETRY_SCHEDULE: '1,2,4,8,15,30,30,30,30,30',
  RATE_LIMIT_PER_MINUTE: '1000000',
  // Named here because the duplicate bound counts in it (verify.ts, duplicateBound).
  WEBHOOK_CONCURRENCY: '32',
} as const;

/**
 * The SDK's retries for the load: a write is retried with its Idempotency-Key through any
 * gateway for a minute or more, longer than any fault lasts (a killed service is back within
 * seconds, a paused NATS within 5 s, a restarted database within about 10 s, a killed gateway's
 * idempotency claim free within 15 s).
 */
export const LOAD_RETRY: RetryOptions = { maxRetries: 20, baseDelayMs: 200, maxDelayMs: 8_000 };

export const ENDPOINTS: readonly { name: string; mode: EndpointMode }[] = [
  { name: 'steady', mode: 'steady' },
  { name: 'flaky', mode: 'flaky' },
];

export interface Provider {
  id: string;
  client: ProviderClient;
}

export interface World {
  stack: Stack;
  dataDir: string;
  gateways: readonly string[];
  agent: HandoffClient;
  staff: StaffClient;
  providers: Provider[];
  /** The endpoints' ids, by name. */
  endpointIds: Map<string, string>;
  /** Service restarts the supervisor saw (kills and any crash). */
  exits: { name: string; signal: string | null; code: number | null; at: number }[];
  stop(): Promise<void>;
}

export async function startWorld(options: {
  replicas: number;
  random: Random;
  receivers: Receivers;
  providers: number;
  say(line: string): void;
}): Promise<World> {
  const dataDir = mkdtempSync(join(tmpdir(), 'handoff-chaos-'));
  const log = createWriteStream(join(dataDir, 'stack.log'));
  const exits: World['exits'] = [];
  const stack = await startStack({
    dataDir,
    port: 0,
    logLevel: 'warn',
    replicas: options.replicas,
    env: { ...process.env, ...CHAOS_STACK_ENV },
    events: {
      onLine: (name, line) => log.write(`${name} | ${line}\n`),
      onStart: () => {},
      onExit: (name, code, signal) => exits.push({ name, code, signal, at: Date.now() }),
      onFatal: (name, lines) =>
        options.say(`chaos: ${name} refuses its settings: ${lines.join(' / ')}`),
    },
  });
  const state = stack.state();
  if (!(await waitUntilEveryReplicaReady(state, 120_000))) {
    await stack.stop();
    throw new Error(`the stack did not come up within 120 s; see ${join(dataDir, 'stack.log')}`);
  }
  const gateways = state.gateway_urls;
  const spread = spreadFetch(gateways, options.random.fork());
  const staffToken = await stack.staffToken();
  const key = await onboardAgent({
    gatewayUrl: gateways[0] ?? state.gateway_url,
    staffToken,
    scopes: [...SCOPES],
    appName: 'chaos',
  });
  const common = { baseUrl: state.gateway_url, fetch: spread, retry: LOAD_RETRY };
  const agent = createHandoffClient({ ...common, apiKey: key.api_key });
  const staff = createStaffClient({ ...common, token: staffToken });

  const endpointIds = new Map<string, string>();
  for (const { name, mode } of ENDPOINTS) {
    const endpoint = await agent.webhookEndpoints.create({
      url: options.receivers.urlOf(name),
      description: `chaos: ${mode}`,
    });
    options.receivers.add(name, mode, endpoint.secret);
    endpointIds.set(name, endpoint.id);
  }
  const providers: Provider[] = [];
  for (let n = 1; n <= options.providers; n += 1) {
    const provider = await staff.providers.create({
      name: `Chaos Studio ${n}`,
      email: `chaos-${n}@providers.example.com`,
      categories: ['web-development'],
      capacity: 50,
    });
    const issued = await staff.providers.createKey(provider.id);
    providers.push({
      id: provider.id,
      client: createProviderClient({ ...common, apiKey: issued.api_key }),
    });
  }
  return {
    stack,
    dataDir,
    gateways,
    agent,
    staff,
    providers,
    endpointIds,
    exits,
    async stop() {
      await stack.stop();
      await new Promise<void>((resolve) => log.end(() => resolve()));
    },
  };
}

/** A fetch that sends each attempt to one of `gateways`, whichever the request named. */
export function spreadFetch(
  gateways: readonly string[],
  random: Random,
): (request: Request) => Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    const target = new URL(random.pick(gateways));
    url.protocol = target.protocol;
    url.host = target.host;
    return fetch(new Request(url, request));
  };
}
