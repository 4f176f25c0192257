// Every service's GET /metrics, scraped as Prometheus would from the whole stack as separate
// processes (`npm start`'s): each process's health port, from DATA_DIR/stack.json. Each scrape
// must pass promtool's parser and linter and our own strict parser, and carry every family that
// README.md's metrics table says lives in that service, with only the labels the table names.
// A little traffic first: an agent onboarded, a webhook endpoint, a request whose events are
// delivered to a receiver on loopback (so the attempt histogram has a sample).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ALL_SERVICES, SCOPES, type ServiceName } from '@handoff/contracts';
import { parsePrometheusText, type PrometheusSample } from '@handoff/observability';
import {
  eventually,
  findPromtool,
  readmeMetricFamilies,
  runPromtool,
  startReceiver,
  type ReadmeMetricFamily,
  type Receiver,
} from '@handoff/testkit';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, onboardAgent } from '../src/gateway-client.ts';
import { startStack, waitUntilReady, type Stack, type StackState } from '../src/stack.ts';
import { REPO_ROOT, STACK_START_BUDGET_MS, lastServiceLines } from './support/run-stack.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'handoff-metrics-'));
/** The services' last lines, shown when the stack or the test fails. */
const { events, tail } = lastServiceLines();

const BACKENDS = ALL_SERVICES.filter((service) => service !== 'gateway');
/** Labels every series may carry beside the family's own: the histogram's and OTel's scope. */
const STANDARD_LABELS = new Set(['le', 'otel_scope_name', 'otel_scope_version']);
/** An id of ours (`req_…`, `int_…`, …), which no label value may be. */
const ID_LIKE = /[a-z]+_[0-9a-zA-Z]{16,}/;

let stack: Stack;
let receiver: Receiver;
let delivered = 0;
let promtool: string;

beforeAll(async () => {
  promtool = await findPromtool();
  receiver = await startReceiver(() => {
    delivered += 1;
  });
  stack = await startStack({ dataDir, port: 0, logLevel: 'warn', env: {}, events });
  const base = stack.state().gateway_url;
  if (!(await waitUntilReady(base, STACK_START_BUDGET_MS))) {
    throw new Error(`the stack did not become ready:\n${tail()}`);
  }
  const agent = await onboardAgent({
    gatewayUrl: base,
    staffToken: await stack.staffToken(),
    scopes: SCOPES,
    appName: 'Metrics families test',
  });
  const headers = { Authorization: `Bearer ${agent.api_key}` };
  await callJson(
    'register an endpoint',
    `${base}/v1/webhook-endpoints`,
    {
      method: 'POST',
      headers,
      body: { url: `${receiver.url}/hooks`, description: 'metrics families test' },
      expect: 201,
    },
    undefined,
  );
  await callJson(
    'hand off a request',
    `${base}/v1/ai-to-human-request`,
    {
      method: 'POST',
      headers,
      body: {
        message: 'We need a landing page for our bakery.',
        category: 'web-development',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        contact_permission: true,
      },
      expect: 201,
    },
    undefined,
  );
  await eventually(() => (delivered > 0 ? true : undefined), {
    timeoutMs: 120_000,
    what: 'a webhook delivery to the receiver',
  });
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const families = readmeMetricFamilies(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));

/**
 * The services a row's "Where" names: those it names by name (`gateway's views projector` is the
 * gateway), `every process:` (all of them), `backend services`, `any process making a bus call` (the gateway makes one for
 * every API call; a backend only when its work needs another service), or `as above`.
 */
function whereOf(rows: readonly ReadmeMetricFamily[]): Map<string, ServiceName[]> {
  const where = new Map<string, ServiceName[]>();
  let previous: ServiceName[] = [];
  for (const row of rows) {
    const text = row.where.toLowerCase();
    let services: ServiceName[];
    if (text.startsWith('as above')) services = previous;
    else if (text.startsWith('every process:')) services = [...ALL_SERVICES];
    else if (text.startsWith('backend services')) services = [...BACKENDS];
    else if (text.startsWith('any process making a bus call')) services = ['gateway'];
    else {
      services = ALL_SERVICES.filter((service) =>
        new RegExp(`(^|[^a-z-])${service}([^a-z-]|$)`).test(text),
      );
    }
    if (services.length === 0) throw new Error(`README: cannot tell where ${row.name} lives`);
    where.set(row.name, services);
    previous = services;
  }
  return where;
}

/** The label names a row allows: its backquoted words, and those of the row it says it is `as`. */
function labelsOf(rows: readonly ReadmeMetricFamily[]): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  let previous = new Set<string>();
  for (const row of rows) {
    const words = new Set([...row.labels.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ''));
    const as = /^as `([^`]+)`/.exec(row.labels)?.[1];
    const base = row.labels.startsWith('as above') ? previous : as ? allowed.get(as) : undefined;
    const labels = new Set([...(base ?? []), ...words]);
    allowed.set(row.name, labels);
    previous = labels;
  }
  return allowed;
}

const WHERE = whereOf(families);
const LABELS = labelsOf(families);
/** What the stack wrote to DATA_DIR/stack.json, as an operator's scraper reads it. */
const state = (): StackState =>
  JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as StackState;

/** Every process of `service`: its health port, from stack.json's replicas. */
function healthPorts(service: ServiceName): number[] {
  const entry = state().services[service];
  const ports = (entry?.replicas ?? []).flatMap((replica) =>
    replica.health_port === undefined ? [] : [replica.health_port],
  );
  if (ports.length === 0) throw new Error(`stack.json names no health port of ${service}`);
  return ports;
}

interface Scrape {
  text: string;
  contentType: string;
  samples: PrometheusSample[];
}

async function scrape(port: number): Promise<Scrape> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return {
    text,
    contentType: res.headers.get('content-type') ?? '',
    samples: parsePrometheusText(text),
  };
}

/** The family of a sample's name among the README's, if any. */
function familyOf(name: string): string | undefined {
  if (WHERE.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return WHERE.has(base) ? base : undefined;
}

describe("every service's /metrics", () => {
  it('covers every README family somewhere, and every service', () => {
    const placed = new Set([...WHERE.values()].flat());
    expect([...placed].sort()).toEqual([...ALL_SERVICES].sort());
    expect(families.length).toBeGreaterThanOrEqual(15);
  });

  it.each(ALL_SERVICES)(
    '%s: Prometheus text that promtool accepts, with its README families and their labels only',
    async (service) => {
      const expected = families
        .map((family) => family.name)
        .filter((name) => WHERE.get(name)?.includes(service));
      expect(expected.length).toBeGreaterThan(0);
      for (const port of healthPorts(service)) {
        // The pending gauge leaves out a durable whose info does not come within 2 s, and a
        // process's histograms appear with their first sample: scrape until all are there.
        const found = await eventually(
          async () => {
            const taken = await scrape(port);
            const present = new Set(taken.samples.map((sample) => familyOf(sample.name)));
            return expected.every((name) => present.has(name)) ? taken : undefined;
          },
          {
            timeoutMs: 60_000,
            intervalMs: 1_000,
            what: `${service}'s families ${expected.join(', ')}`,
          },
        );
        expect(found.contentType).toMatch(/^text\/plain; version=0\.0\.4/);

        const checked = await runPromtool(promtool, ['check', 'metrics'], { input: found.text });
        expect({ service, code: checked.code, output: checked.stdout + checked.stderr }).toEqual({
          service,
          code: 0,
          output: '',
        });

        const unexpected = found.samples.flatMap((sample) => {
          const family = familyOf(sample.name);
          if (family === undefined) return [];
          const allowed = LABELS.get(family) ?? new Set<string>();
          return Object.keys(sample.labels)
            .filter((label) => !STANDARD_LABELS.has(label) && !allowed.has(label))
            .map((label) => `${family}{${label}}`);
        });
        expect({ service, unexpected: [...new Set(unexpected)] }).toEqual({
          service,
          unexpected: [],
        });
        const idShaped = found.samples.flatMap((sample) =>
          Object.values(sample.labels).filter((value) => ID_LIKE.test(value)),
        );
        expect({ service, idShaped }).toEqual({ service, idShaped: [] });
      }
    },
    120_000,
  );

  it("the gateway's counts requests by route template, the request handed off included", async () => {
    const [port = 0] = healthPorts('gateway');
    const { samples } = await scrape(port);
    const counts = samples.filter(
      (sample) => sample.name === 'http_server_request_duration_seconds_count',
    );
    const handedOff = counts.find(
      (sample) =>
        sample.labels.http_route === '/v1/ai-to-human-request' &&
        sample.labels.http_request_method === 'POST' &&
        sample.labels.http_response_status_code === '201',
    );
    expect(handedOff?.value).toBeGreaterThanOrEqual(1);
    for (const sample of counts) {
      expect(sample.labels.http_route).toMatch(/^(\/[a-zA-Z0-9_.{}*-]*)+$|^unmatched$/);
    }
  });

  it('counters of a bounded label set are there from the start, at 0 until they count', async () => {
    const zeroes: Record<string, [ServiceName, Record<string, string>]> = {
      handoff_webhook_endpoints_disabled_total: ['webhook-dispatcher', { reason: 'failing' }],
      handoff_webhook_deliveries_parked_total: ['webhook-dispatcher', { reason: 'exhausted' }],
      handoff_routing_offers_total: ['intake', { outcome: 'lapsed' }],
      handoff_rate_limit_refusals_total: ['gateway', { limit: 'sign_in' }],
      handoff_emails_total: ['notifications', { kind: 'staff_queue', outcome: 'failed' }],
    };
    for (const [name, [service, labels]] of Object.entries(zeroes)) {
      const [port = 0] = healthPorts(service);
      const { samples } = await scrape(port);
      const series = samples.find(
        (sample) =>
          sample.name === name &&
          Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      );
      expect({ name, value: series?.value }).toEqual({ name, value: 0 });
    }
  });
});
