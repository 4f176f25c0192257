import { beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES, SIMULATED_PROVIDER_ID } from '@handoff/contracts';
import { eventually } from '@handoff/testkit';
import { readFileSync } from 'node:fs';
import { http, type Answer, type Onboarded } from './support/http.ts';
import { CUSTOMER, useStack, type ProviderAccount } from './support/stack.ts';

// Test mode's isolation, table-driven over the OpenAPI document: every agent operation, called
// with one mode's key on the other mode's resources, answers 404 as for another integration's;
// every agent list shows only its own mode's objects. A test request never reaches a provider
// offer of a real provider.

const stack = useStack('gw_test_mode', {
  oneDatabase: true,
  env: {
    'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    intake: { LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' },
  },
});

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: Record<string, unknown>[];
        requestBody?: { content: Record<string, { example?: unknown }> };
      }
    >
  >;
}

const document = JSON.parse(
  readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
) as OpenApi;

interface AgentOperation {
  method: string;
  path: string;
  body: unknown;
}

/** Every operation an agent key calls, with the document's example body (a valid one). */
const AGENT_OPERATIONS: AgentOperation[] = Object.entries(document.paths).flatMap(
  ([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => (operation.security ?? []).some((scheme) => 'agentKey' in scheme))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        body:
          method === 'patch'
            ? { enabled: true }
            : operation.requestBody?.content['application/json']?.example,
      })),
);

/** One mode's key and the resources it made. */
interface Side {
  label: 'live' | 'test';
  key: string;
  request: { id: string; token: string };
  endpointId: string;
  eventId: string;
  /** A test clock of the test side; the live side can make none, so it names an unknown one. */
  clockId: string;
}

let live: Side;
let test: Side;
let provider: ProviderAccount;

async function sideOf(label: Side['label'], key: string): Promise<Side> {
  const created = await http(stack.gateway, '/v1/ai-to-human-request', {
    token: key,
    body: { ...CUSTOMER, ...(label === 'test' ? { test_scenario: 'declines' } : {}) },
  });
  expect(created.status).toBe(201);
  expect(created.body.livemode).toBe(label === 'live');
  const endpoint = await http(stack.gateway, '/v1/webhook-endpoints', {
    token: key,
    body: { url: 'http://127.0.0.1:9/hooks' },
  });
  expect(endpoint.status).toBe(201);
  expect(endpoint.body.livemode).toBe(label === 'live');
  const request = { id: String(created.body.id), token: String(created.body.request_token) };
  const eventId = await eventually(async () => {
    const events = await http(stack.gateway, `/v1/request/${request.id}/events`, {
      token: key,
      headers: { 'X-Service-Request-Token': request.token },
    });
    const data = events.body.data as { id: string; livemode: boolean }[] | undefined;
    const first = data?.[0];
    if (!first) throw new Error('no event yet');
    expect(first.livemode).toBe(label === 'live');
    return first.id;
  });
  const clock =
    label === 'test'
      ? await http(stack.gateway, '/v1/test-clocks', { token: key, body: {} })
      : undefined;
  expect(clock?.status ?? 201).toBe(201);
  const clockId = String(clock?.body.id ?? 'clk_0000000000000000000000000x');
  return { label, key, request, endpointId: String(endpoint.body.id), eventId, clockId };
}

/** The path with `side`'s resources in it (child ids are well-formed strangers). */
function pathOn(operation: AgentOperation, side: Side): string {
  const resourceId = operation.path.startsWith('/v1/request/')
    ? side.request.id
    : operation.path.startsWith('/v1/events/')
      ? side.eventId
      : operation.path.startsWith('/v1/test-clocks/')
        ? side.clockId
        : side.endpointId;
  // An upload names its file in the query, which is checked before the request is looked up.
  const query =
    operation.method === 'POST' && operation.path.endsWith('/files') ? '?filename=a.txt' : '';
  return (
    operation.path
      .replace('{id}', resourceId)
      .replace(
        /\{(\w+)_id\}/g,
        (_, name: string) => `${prefixOf(name)}_0000000000000000000000000x`,
      ) + query
  );
}

const prefixOf = (name: string) =>
  ({
    deliverable: 'dlv',
    dispute: 'dsp',
    job: 'job',
    milestone: 'mst',
    payment_request: 'prq',
    proposal: 'prp',
  })[name] ?? name;

function call(operation: AgentOperation, caller: Side, owner: Side): Promise<Answer> {
  return http(stack.gateway, pathOn(operation, owner), {
    method: operation.method,
    token: caller.key,
    headers: {
      'X-Service-Request-Token': owner.request.token,
      ...(operation.method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {}),
    },
    ...(operation.body === undefined ? {} : { body: operation.body }),
  });
}

beforeAll(async () => {
  const agent: Onboarded = await stack.agentOf([...SCOPES]);
  const issued = await stack.asStaff(`/integrations/${agent.integrationId}/keys`, {
    body: { livemode: false },
  });
  expect(issued).toMatchObject({ status: 201, body: { livemode: false } });
  expect(String(issued.body.api_key)).toMatch(/^hk_test_[0-9A-Za-z]{36}$/);
  // A real provider in the requests' category, who must never be offered a test request.
  provider = await stack.providerOf(['home-services'], { capacity: 5 });
  live = await sideOf('live', agent.key);
  test = await sideOf('test', String(issued.body.api_key));
});

describe('test mode isolation', () => {
  const onIds = AGENT_OPERATIONS.filter((operation) => operation.path.includes('{id}'));
  const lists = AGENT_OPERATIONS.filter(
    (operation) => operation.method === 'GET' && !operation.path.includes('{'),
  );

  it('covers every agent operation of the document', () => {
    expect(onIds.length).toBeGreaterThan(30);
    expect(lists.map((operation) => operation.path).sort()).toEqual([
      '/v1/events',
      '/v1/me',
      '/v1/test-clocks',
      '/v1/webhook-endpoints',
    ]);
  });

  it('documents `livemode` on every object an agent answer marks with it', () => {
    interface Shape {
      properties?: Record<string, Shape & { const?: unknown; type?: unknown }>;
      items?: Shape;
    }
    // What the gateway marks (livemode.ts): objects whose `object` names their kind.
    const named = (schema: Shape | undefined) => schema?.properties?.object?.type === 'string';
    const marked = (schema: Shape | undefined): Shape[] => {
      const properties = schema?.properties ?? {};
      if (properties.object?.const === 'list') return marked(properties.data?.items);
      if (named(schema)) return [schema as Shape];
      // A top-level member that is an object of the API (a proposal accepted with its job).
      return Object.values(properties).filter(named);
    };
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!(operation.security ?? []).some((scheme) => 'agentKey' in scheme)) continue;
        const responses = (operation as { responses?: Record<string, unknown> }).responses ?? {};
        for (const [status, response] of Object.entries(responses)) {
          if (!status.startsWith('2')) continue;
          const content = (response as { content?: Record<string, { schema?: Shape }> }).content;
          for (const schema of marked(content?.['application/json']?.schema)) {
            if (!schema.properties?.livemode) missing.push(`${method} ${path} ${status}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it.each([
    ['a live key on test resources', () => [live, test] as const],
    ['a test key on live resources', () => [test, live] as const],
  ])('answers 404 for every operation on an id: %s', async (_, sides) => {
    const [caller, owner] = sides();
    const answers: [string, number][] = [];
    for (const operation of onIds) {
      const answer = await call(operation, caller, owner);
      answers.push([`${operation.method} ${operation.path}`, answer.status]);
    }
    expect(answers).toEqual(onIds.map((o) => [`${o.method} ${o.path}`, 404]));
  });

  it('answers the same reads on its own resources (the 404s above are not the only answer)', async () => {
    const reads = onIds.filter(
      (operation) => operation.method === 'GET' && !/\{\w+_id\}/.test(operation.path),
    );
    for (const side of [live, test]) {
      for (const operation of reads) {
        // Test clocks are test mode's: a live key has none of its own to read.
        if (side.label === 'live' && operation.path.startsWith('/v1/test-clocks/')) continue;
        const answer = await call(operation, side, side);
        expect([side.label, operation.path, answer.status]).toEqual([
          side.label,
          operation.path,
          200,
        ]);
      }
    }
  });

  it('lists only its own mode, every object saying which', async () => {
    for (const [side, other] of [
      [live, test],
      [test, live],
    ] as const) {
      for (const operation of lists) {
        const answer = await http(stack.gateway, operation.path, { token: side.key });
        expect(answer.status).toBe(200);
        const items = (answer.body.data as { id: string; livemode: boolean }[] | undefined) ?? [
          answer.body as { id: string; livemode: boolean },
        ];
        const ids = items.map((item) => item.id);
        expect(ids).not.toContain(other.endpointId);
        expect(ids).not.toContain(other.eventId);
        for (const item of items) expect(item.livemode).toBe(side.label === 'live');
      }
    }
  });

  it('offers a test request to the simulated provider only, never a real one', async () => {
    const routed = await eventually(async () => {
      const read = await stack.asStaff(`/requests/${test.request.id}`);
      const routing = read.body.automatic_routing as { offers: { provider_id: string }[] };
      if (routing.offers.length === 0) throw new Error('no offer yet');
      return routing;
    });
    expect(routed.offers.map((offer) => offer.provider_id)).toEqual([SIMULATED_PROVIDER_ID]);
    const inbox = await stack.asProvider(provider, '/requests');
    expect(JSON.stringify(inbox.body)).not.toContain(test.request.id);
    // Staff cannot route it to a real provider either.
    const mixed = await stack.asStaff(`/requests/${test.request.id}`, {
      method: 'PATCH',
      body: { status: 'routed', routing: { mode: 'direct', provider_ids: [provider.id] } },
    });
    expect(mixed).toMatchObject({ status: 409, body: { code: 'routing_mode_mismatch' } });
  });

  it('refuses a test scenario from a live key', async () => {
    const refused = await http(stack.gateway, '/v1/ai-to-human-request', {
      token: live.key,
      body: { ...CUSTOMER, test_scenario: 'happy_path' },
    });
    expect(refused).toMatchObject({
      status: 422,
      body: { errors: [{ pointer: '/test_scenario', code: 'test_mode_only' }] },
    });
  });
});
