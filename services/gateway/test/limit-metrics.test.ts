import { beforeAll, describe, expect, it } from '@jest/globals';
import { API_KEY_PREFIX, UPDATES_LIMITS } from '@handoff/contracts';
import { parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import { eventually } from '@handoff/testkit';
import { randomBytes } from 'node:crypto';
import type { RunningGateway } from '../src/bootstrap.ts';
import { RATE_LIMITS } from '../src/http/limit-metrics.ts';
import { ratePolicies } from '../src/routes/index.ts';
import { address, http, type Onboarded } from './support/http.ts';
import { useStack } from './support/stack.ts';

// The gateway's limits on its health port's /metrics: 429s counted by the limit that refused
// them, and the long-polls held now. A gateway of tiny limits provokes the refusals; the stack's
// own holds one long-poll per key.

const stack = useStack('limit_metrics', {
  services: ['intake', 'conversation', 'webhook-dispatcher'],
  oneDatabase: true,
  gateway: { HEALTH_PORT: '0', UPDATES_MAX_WAITERS_PER_KEY: '1', BUS_TIMEOUT_MS: '2000' },
});
let agent: Onboarded;
/** An agent of its own for the strict gateway: key counters are shared by every gateway. */
let limited: Onboarded;
/** Allows two calls a minute per key, per address and failed authentications. */
let strict: RunningGateway;

beforeAll(async () => {
  [agent, limited] = await Promise.all([
    stack.agentOf(['requests:create', 'requests:read', 'messages:create']),
    stack.agentOf(['requests:read']),
  ]);
  strict = await stack.extraGateway({
    HEALTH_PORT: '0',
    RATE_LIMIT_PER_MINUTE: '2',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '2',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '2',
    // A slow counter lets a call through after this long; a busy machine must not turn a 429 into a 200.
    RATE_LIMIT_TIMEOUT_MS: '30000',
  });
});

const scrape = async (gateway: RunningGateway): Promise<PrometheusSample[]> => {
  const res = await fetch(`http://127.0.0.1:${String(gateway.healthPort)}/metrics`);
  expect(res.status).toBe(200);
  return parsePrometheusText(await res.text());
};

const refusals = async (limit: string, gateway = strict): Promise<number> =>
  (await scrape(gateway)).find(
    (s) => s.name === 'handoff_rate_limit_refusals_total' && s.labels.limit === limit,
  )?.value ?? 0;

const waiting = async (): Promise<number | undefined> =>
  (await scrape(stack.gateway)).find((s) => s.name === 'handoff_long_polls_waiting')?.value;

/**
 * Three calls where two are allowed, within one minute's window: answers their statuses. The
 * windows are fixed minutes, so the calls start at least 10 s before the next one begins.
 */
async function thrice(call: (attempt: number) => Promise<{ status: number }>) {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await call(attempt)).status);
  return statuses;
}

describe('handoff_rate_limit_refusals_total', () => {
  it('counts a key over its limit under `key`', async () => {
    const before = await refusals('key');
    const statuses = await thrice(() => http(strict, '/v1/me', { token: limited.key }));
    expect(statuses).toEqual([200, 200, 429]);
    expect(await refusals('key')).toBe(before + 1);
  });

  it('counts an address over the public limit under `public`', async () => {
    const before = await refusals('public');
    const from = address();
    expect(await thrice(() => http(strict, '/v1/capabilities', { from }))).toEqual([200, 200, 429]);
    expect(await refusals('public')).toBe(before + 1);
  });

  it('counts failed authentications per address and per key prefix under their own limits', async () => {
    const [byAddress, byPrefix] = [
      await refusals('auth_failures'),
      await refusals('auth_failures_prefix'),
    ];
    const badKey = () => `${API_KEY_PREFIX}${randomBytes(24).toString('hex')}`;
    const from = address();
    expect(await thrice(() => http(strict, '/v1/me', { token: badKey(), from }))).toEqual([
      401, 401, 429,
    ]);
    expect(await refusals('auth_failures')).toBe(byAddress + 1);
    // One prefix from three addresses: only the prefix's budget runs out.
    const prefix = `${API_KEY_PREFIX}${randomBytes(2).toString('hex')}`;
    const statuses = await thrice(() =>
      http(strict, '/v1/me', {
        token: `${prefix}${randomBytes(24).toString('hex')}`,
        from: address(),
      }),
    );
    expect(statuses).toEqual([401, 401, 429]);
    expect(await refusals('auth_failures_prefix')).toBe(byPrefix + 1);
    expect(await refusals('auth_failures')).toBe(byAddress + 1);
  });

  it('declares every limit the pipeline and the guard enforce, and labels nothing else', async () => {
    const { signInPerAddress, ...enforced } = ratePolicies(stack.gateway.env);
    // Past its limit the workspace's sign-in ask answers as ever and sends nothing: no 429.
    expect(signInPerAddress.name).toBe('sign_in_address');
    for (const policy of Object.values(enforced)) {
      expect(RATE_LIMITS).toContain(policy.name);
    }
    const samples = (await scrape(strict)).filter(
      (s) => s.name === 'handoff_rate_limit_refusals_total',
    );
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      expect(Object.keys(sample.labels).sort()).toEqual(['limit', 'otel_scope_name']);
      expect(RATE_LIMITS).toContain(sample.labels.limit);
      expect(sample.labels.limit).not.toMatch(/[a-z]+_[0-9a-z]{20,}/);
    }
  });
});

describe('handoff_long_polls_waiting', () => {
  it('is the long-polls held now: 1 while one waits, 0 once it answered', async () => {
    const created = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: agent.key,
      body: { message: 'Please find me a plumber.' },
    });
    expect(created.status).toBe(201);
    const request = { id: String(created.body.id), token: String(created.body.request_token) };
    const asOwner = { token: agent.key, headers: { 'X-Service-Request-Token': request.token } };
    const poll = () =>
      http(
        stack.gateway,
        `/v1/request/${request.id}/events?after=1&wait=${UPDATES_LIMITS.maxWaitSeconds}`,
        asOwner,
      );
    expect(await waiting()).toBe(0);
    const held = poll();
    await eventually(async () => ((await waiting()) === 1 ? true : undefined), {
      what: 'one long-poll held',
    });

    // The key holds all it may (UPDATES_MAX_WAITERS_PER_KEY=1): a second is refused, not held.
    const perKeyBefore = await refusals('long_polls_per_key', stack.gateway);
    expect((await poll()).status).toBe(429);
    expect(await refusals('long_polls_per_key', stack.gateway)).toBe(perKeyBefore + 1);
    expect(await waiting()).toBe(1);

    const message = await http(stack.gateway, `/v1/request/${request.id}/message`, {
      ...asOwner,
      body: { message: 'Any news?' },
    });
    expect(message.status).toBe(201);
    expect((await held).status).toBe(200);
    await eventually(async () => ((await waiting()) === 0 ? true : undefined), {
      what: 'the long-poll let go',
    });
  });
});
