// One call's trace, read back from a real Jaeger: the whole stack (its services as separate
// processes) exports its spans over OTLP, an agent creates a request that a webhook endpoint and
// the staff's review mail follow, and the trace of that one call must hold the gateway's span,
// the service's, the database writes, the outbox's publish, the webhook attempt (a child of the
// event's handling, linked to it) and the mail's hand-over, every one under the gateway's span.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SCOPES } from '@handoff/contracts';
import {
  eventually,
  startJaeger,
  startReceiver,
  type Jaeger,
  type Receiver,
} from '@handoff/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { callJson, onboardAgent, type AgentKey } from '../src/gateway-client.ts';
import { lastServiceLines } from './support/run-stack.ts';
import { startStack, waitUntilReady, type Stack } from '../src/stack.ts';

/** Generous: the spans of eight processes reach Jaeger on a shared, busy machine. */
const TRACE_BUDGET_MS = 180_000;
const CREATE_ROUTE = '/v1/ai-to-human-request';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-trace-'));
/** The services' last lines, shown when the stack or the test fails. */
const { events, tail } = lastServiceLines();

let jaeger: Jaeger;
let stack: Stack;
let receiver: Receiver;
let base: string;
let agent: AgentKey;
const delivered: { path: string; body: string }[] = [];

beforeAll(async () => {
  jaeger = await startJaeger({ dataDir: join(dataDir, 'jaeger') });
  receiver = await startReceiver((delivery) => delivered.push(delivery));
  stack = await startStack({
    dataDir,
    port: 0,
    logLevel: 'warn',
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttpUrl,
      // Spans leave each process within a fifth of a second, not the default five.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
    events,
  });
  base = stack.state().gateway_url;
  if (!(await waitUntilReady(base, 120_000))) throw new Error('the stack did not become ready');
  agent = await onboardAgent({
    gatewayUrl: base,
    staffToken: await stack.staffToken(),
    scopes: SCOPES,
    appName: 'Trace test',
  });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  await jaeger?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const Delivered = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({ request_id: z.string() }),
});

/** The ids of the traces Jaeger holds of `service`'s `operation` (its search API). */
async function tracesOf(service: string, operation: string): Promise<string[]> {
  const query = new URLSearchParams({ service, operation, lookback: '1h', limit: '20' });
  const res = await fetch(`${jaeger.queryUrl}/api/traces?${query.toString()}`);
  if (!res.ok) throw new Error(`Jaeger search: HTTP ${res.status}`);
  const body = z
    .object({ data: z.array(z.object({ traceID: z.string() })).nullable() })
    .parse(await res.json());
  return (body.data ?? []).map((trace) => trace.traceID);
}

// A trace as Jaeger's API v3 answers it: OTLP's JSON, spans as exported. (The v1 API's model
// folds a link to the parent into one FOLLOWS_FROM reference; this one keeps both.)
const OtlpAttribute = z.object({
  key: z.string(),
  value: z.object({
    stringValue: z.string().optional(),
    // 64-bit integers are strings in OTLP's JSON.
    intValue: z.union([z.string(), z.number()]).optional(),
    boolValue: z.boolean().optional(),
    doubleValue: z.number().optional(),
  }),
});
const OtlpSpan = z.object({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().optional(),
  name: z.string(),
  kind: z.number().optional(),
  attributes: z.array(OtlpAttribute).optional(),
  links: z.array(z.object({ traceId: z.string(), spanId: z.string() })).optional(),
});
const OtlpTrace = z.object({
  result: z.object({
    resourceSpans: z.array(
      z.object({
        resource: z.object({ attributes: z.array(OtlpAttribute).optional() }),
        scopeSpans: z.array(z.object({ spans: z.array(OtlpSpan).optional() })),
      }),
    ),
  }),
});

/** OTLP's span kinds, by number. */
const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

interface TraceSpan {
  service: string | undefined;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: (typeof KINDS)[number] | undefined;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

const valueOf = ({ value }: z.infer<typeof OtlpAttribute>): unknown =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));

const attributesOf = (list: z.infer<typeof OtlpAttribute>[] = []) =>
  Object.fromEntries(list.map((attribute) => [attribute.key, valueOf(attribute)]));

/** The spans Jaeger holds of a trace (`GET /api/v3/traces/{id}`); none while it has none. */
async function traceSpans(traceId: string): Promise<TraceSpan[]> {
  const res = await fetch(`${jaeger.queryUrl}/api/v3/traces/${traceId}`);
  if (res.status === 404) return [];
  if (!res.ok) throw new Error(`Jaeger GET /api/v3/traces/${traceId}: HTTP ${res.status}`);
  return OtlpTrace.parse(await res.json()).result.resourceSpans.flatMap(
    ({ resource, scopeSpans }) => {
      const service = attributesOf(resource.attributes)['service.name'];
      return scopeSpans.flatMap(({ spans = [] }) =>
        spans.map((span) => ({
          service: typeof service === 'string' ? service : undefined,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind === undefined ? undefined : KINDS[span.kind],
          attributes: attributesOf(span.attributes),
          links: span.links ?? [],
        })),
      );
    },
  );
}

/** Walks a span's parents to the root of the trace; the span itself first. */
function ancestry(spans: readonly TraceSpan[], span: TraceSpan): TraceSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain = [span];
  for (let at = span; ;) {
    const parent = at.parentSpanId === undefined ? undefined : byId.get(at.parentSpanId);
    if (!parent || chain.includes(parent)) return chain;
    chain.push(parent);
    at = parent;
  }
}

describe('one trace per call, read back from Jaeger', () => {
  it('holds the gateway, the service, the database, the outbox, the webhook attempt and the mail', async () => {
    try {
      await followOneCall();
    } catch (error) {
      throw new Error(`${String(error)}\nlast service lines:\n${tail()}`, {
        cause: error,
      });
    }
  }, 420_000);
});

async function followOneCall() {
  const headers = { Authorization: `Bearer ${agent.api_key}` };
  // A query string may hold a receiver's token: the attempt's span must not show it.
  await callJson(
    'register the endpoint',
    `${base}/v1/webhook-endpoints`,
    {
      method: 'POST',
      headers,
      body: { url: `${receiver.url}/hooks?token=s3cret`, description: 'trace test receiver' },
      expect: 201,
    },
    undefined,
  );
  // Opted in to the marketplace: the request waits for staff review, and staff get a mail.
  const created = await callJson(
    'create a request',
    `${base}${CREATE_ROUTE}`,
    {
      method: 'POST',
      headers,
      body: {
        message: 'We need a landing page for our bakery, with an order form.',
        category: 'web-development',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        contact_permission: true,
        marketplace_opt_in: true,
      },
      expect: 201,
    },
    undefined,
  );
  const requestId = z.object({ id: z.string() }).parse(created).id;

  const event = await eventually(
    () =>
      delivered
        .map((delivery) => Delivered.parse(JSON.parse(delivery.body)))
        .find((body) => body.type === 'request.created' && body.data.request_id === requestId),
    { timeoutMs: TRACE_BUDGET_MS, intervalMs: 200, what: 'the request.created delivery' },
  );

  const isAttempt = (span: TraceSpan) =>
    span.service === 'webhook-dispatcher' &&
    span.kind === 'client' &&
    span.attributes['handoff.event.id'] === event.id;
  const isMail = (span: TraceSpan) =>
    span.service === 'notifications' &&
    span.name === 'smtp send' &&
    span.attributes['handoff.event.id'] === event.id;

  // The gateway names its span by the route's template, so one search finds the call's trace.
  const [traceId, ...others] = await eventually(
    async () => {
      const found = await tracesOf('gateway', `POST ${CREATE_ROUTE}`);
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs: TRACE_BUDGET_MS, intervalMs: 500, what: 'the call in Jaeger' },
  );
  expect(others).toEqual([]);
  if (!traceId) throw new Error('no trace id');
  // Spans arrive from each process in its own batches: read until the last ones are there.
  const spans = await eventually(
    async () => {
      const read = await traceSpans(traceId);
      return read.some(isAttempt) && read.some(isMail) ? read : undefined;
    },
    { timeoutMs: TRACE_BUDGET_MS, intervalMs: 500, what: 'the attempt and mail spans in Jaeger' },
  );

  expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceId]));
  const services = new Set(spans.map((span) => span.service));
  for (const name of ['gateway', 'intake', 'webhook-dispatcher', 'notifications']) {
    expect(services).toContain(name);
  }

  // The gateway's server span: named by the route template, the root of the trace.
  const gateway = spans.find((span) => span.service === 'gateway' && span.kind === 'server');
  if (!gateway) throw new Error('no gateway span');
  expect(gateway.name).toBe(`POST ${CREATE_ROUTE}`);
  expect(gateway.attributes).toMatchObject({
    'http.request.method': 'POST',
    'http.route': CREATE_ROUTE,
    'http.response.status_code': 201,
  });
  expect(gateway.parentSpanId).toBeUndefined();

  // The service's span (the bus request it served), and its database writes under it.
  const served = spans.filter(
    (span) =>
      span.service === 'intake' &&
      span.kind === 'server' &&
      span.attributes['messaging.system'] === 'nats',
  );
  expect(served.length).toBeGreaterThan(0);
  for (const span of served) expect(ancestry(spans, span)).toContain(gateway);
  const writes = spans.filter(
    (span) =>
      span.service === 'intake' &&
      span.attributes['db.system.name'] === 'mongodb' &&
      ['insert', 'update', 'findAndModify'].includes(String(span.attributes['db.operation.name'])),
  );
  expect(writes.length).toBeGreaterThan(0);
  for (const write of writes) expect(ancestry(spans, write)).toContain(gateway);

  // The outbox's publish of the event, under the call.
  const publish = spans.find(
    (span) => span.kind === 'producer' && span.attributes['messaging.message.id'] === event.id,
  );
  if (!publish) throw new Error('no publish span');
  expect(publish.name).toBe('handoff.events.request.created publish');
  expect(ancestry(spans, publish)).toContain(gateway);

  // The webhook attempt: an HTTP client span, child of the event's handling and linked to it.
  const attempt = spans.find(isAttempt);
  if (!attempt) throw new Error('no attempt span');
  expect(attempt.name).toBe('POST');
  expect(attempt.attributes).toMatchObject({
    'handoff.delivery.id': expect.stringContaining(event.id),
    'handoff.attempt': 1,
    'http.request.method': 'POST',
    'http.response.status_code': 204,
    'url.full': `${receiver.url}/hooks`,
    'server.address': '127.0.0.1',
  });
  expect(JSON.stringify(attempt.attributes)).not.toContain('s3cret');
  const chain = ancestry(spans, attempt);
  expect(chain).toContain(publish);
  expect(chain.at(-1)).toBe(gateway);
  const handling = chain[1];
  expect(handling?.service).toBe('webhook-dispatcher');
  expect(handling?.kind).toBe('consumer');
  expect(attempt.links).toEqual([{ traceId, spanId: handling?.spanId }]);

  // The staff's review mail, handed to the SMTP server under the event's handling.
  const mail = spans.find(isMail);
  if (!mail) throw new Error('no mail span');
  expect(mail.attributes).toMatchObject({
    'handoff.mail.kind': 'staff_queue',
    'handoff.mail.outcome': 'accepted',
  });
  const mailChain = ancestry(spans, mail);
  expect(mailChain[1]?.service).toBe('notifications');
  expect(mailChain[1]?.kind).toBe('consumer');
  expect(mailChain).toContain(publish);
  expect(mailChain.at(-1)).toBe(gateway);
}
