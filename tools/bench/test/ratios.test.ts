import { describe, expect, it } from '@jest/globals';
import { formatRatiosTable } from '../src/format.ts';
import { AGENT_SCOPES } from '../src/fixtures/gateway-stack.ts';
import { computeRatios } from '../src/measure.ts';
import { AGENT_API_CONNECTIONS } from '../src/scenarios/gateway-requests.ts';
import { RATIOS, scenarios } from '../src/scenarios/index.ts';
import { SHARED_STACK_ORDER } from './support/order.ts';
import { report, stats } from './support/reports.ts';

/** The engagement's scenarios. */
const ENGAGEMENT = ['provider-proposal', 'milestone-approval'];
/** The scenarios on a stack of their own (besides the -r3 ones). */
const OWN_STACK = ['routing', 'file-upload-rss'];
/** The telemetry cost's scenarios, on two stacks of their own (test/telemetry-cost.test.ts). */
const TELEMETRY = /-telemetry-(on|off)$/;

describe('the registry', () => {
  const registered = scenarios({ logLevel: 'warn' });

  it('has unique names, and every ratio compares two registered scenarios', () => {
    const names = registered.map((scenario) => scenario.name);
    expect(new Set(names).size).toBe(names.length);
    for (const ratio of RATIOS) {
      expect(names).toContain(ratio.subject);
      expect(names).toContain(ratio.baseline);
    }
  });

  it('shares one stack among the gateway scenarios, and one 3-node stack among the -r3 ones', () => {
    const onStack = registered.filter((scenario) => (scenario.uses ?? []).length > 0);
    const r3 = onStack.filter((scenario) => scenario.name.endsWith('-r3'));
    const gateway = onStack.filter(
      (scenario) =>
        !scenario.name.endsWith('-r3') &&
        !OWN_STACK.includes(scenario.name) &&
        !TELEMETRY.test(scenario.name),
    );
    expect(r3.map((scenario) => scenario.name)).toEqual([
      'gateway-create-r3',
      'webhook-deliveries-1-r3',
    ]);
    expect(r3[0]?.uses).toHaveLength(1);
    expect(r3[1]?.uses?.[0]).toBe(r3[0]?.uses?.[0]);
    expect(r3[0]?.uses?.[0]).not.toBe(gateway[0]?.uses?.[0]);
    expect(r3[0]?.uses?.[0]?.name).toBe('gateway-stack-r3');
    // Last: the first stack is torn down before the second one starts.
    expect(registered.slice(-2)).toEqual(r3);
    expect(
      gateway.filter((scenario) => scenario.group === undefined).map((scenario) => scenario.name),
    ).toEqual(SHARED_STACK_ORDER);
    const [first, ...others] = gateway.map((scenario) => scenario.uses ?? []);
    expect(first).toHaveLength(1);
    for (const uses of others) expect(uses).toEqual(first);
    expect(first?.[0]).toBe(others[0]?.[0]);
  });

  it('runs routing on a stack of its own, after the shared stack is gone and before the -r3 ones', () => {
    const names = registered.map((scenario) => scenario.name);
    const routing = registered.find((scenario) => scenario.name === 'routing');
    const shared = registered.find((scenario) => scenario.name === 'gateway-create')?.uses?.[0];
    expect(routing?.uses).toHaveLength(1);
    expect(routing?.uses?.[0]?.name).toBe('routing-stack');
    expect(routing?.uses?.[0]).not.toBe(shared);
    const lastShared = Math.max(
      ...registered.flatMap((scenario, index) =>
        scenario.uses?.[0] === shared && scenario.group === undefined ? [index] : [],
      ),
    );
    expect(names.indexOf('routing')).toBeGreaterThan(lastShared);
    expect(names.slice(-4)).toEqual([
      'routing',
      'file-upload-rss',
      'gateway-create-r3',
      'webhook-deliveries-1-r3',
    ]);
    // Its offers per second read against gateway-create's creates per second, same concurrency.
    expect(routing?.connections).toBe(AGENT_API_CONNECTIONS);
    expect(RATIOS.filter((ratio) => ratio.subject === 'routing')).toEqual([
      expect.objectContaining({ baseline: 'gateway-create' }),
    ]);
  });

  it('runs the file uploads for memory on a stack of their own, once the shared one is gone', () => {
    const rss = registered.find((scenario) => scenario.name === 'file-upload-rss');
    const shared = registered.find((scenario) => scenario.name === 'gateway-create')?.uses?.[0];
    expect(rss?.uses?.[0]?.name).toBe('gateway-stack-files');
    expect(rss?.uses?.[0]).not.toBe(shared);
    expect(rss?.connections).toBe(20);
    // Each file against its raw GridFS baseline, at the same concurrency.
    for (const [subject, baseline] of [
      ['file-upload-1mib', 'gridfs-write-1mib'],
      ['file-download-1mib', 'gridfs-read-1mib'],
    ] as const) {
      expect(RATIOS.filter((ratio) => ratio.subject === subject)).toEqual([
        expect.objectContaining({ baseline }),
      ]);
      const connections = (name: string) =>
        registered.find((scenario) => scenario.name === name)?.connections;
      expect(connections(subject)).toBe(connections(baseline));
    }
  });

  it('runs the agent API and the engagement writes at the same fixed concurrency', () => {
    const fixed = registered
      .filter((scenario) => scenario.connections === AGENT_API_CONNECTIONS)
      .map((scenario) => scenario.name);
    expect(fixed).toEqual(expect.arrayContaining(ENGAGEMENT));
    expect(fixed).toEqual(expect.arrayContaining(['gateway-create', 'gateway-message']));
  });

  it('gives the agent key the scopes of every agent API scenario', () => {
    expect([...AGENT_SCOPES].sort()).toEqual([
      'messages:create',
      'milestones:read',
      'milestones:review',
      'proposals:accept',
      'proposals:read',
      'requests:create',
      'requests:read',
    ]);
  });

  it('compares each agent API scenario with the floor, the public pipeline and the bus', () => {
    for (const subject of ['gateway-create', 'gateway-read', 'gateway-message', ...ENGAGEMENT]) {
      const baselines = RATIOS.filter((ratio) => ratio.subject === subject).map(
        (ratio) => ratio.baseline,
      );
      // The writes also against the raw insert on the same database server.
      expect(baselines).toEqual([
        'express-bare',
        'gateway-public',
        'nats-request-reply',
        ...(subject === 'gateway-read' ? [] : ['stack-insert-one']),
      ]);
      const bus = RATIOS.find(
        (ratio) => ratio.subject === subject && ratio.baseline === 'nats-request-reply',
      );
      expect(bus?.note).toMatch(/bus call/);
    }
    // Grouped by subject: every subject's ratios are next to each other.
    const subjects = RATIOS.map((ratio) => ratio.subject);
    expect(subjects.filter((subject, i) => subject !== subjects[i - 1])).toEqual([
      ...new Set(subjects),
    ]);
  });

  it('has no ratio for a scenario that completed nothing', () => {
    const ratios = computeRatios(
      [
        { subject: 'gateway-message', baseline: 'express-bare' },
        { subject: 'gateway-read', baseline: 'gateway-message' },
      ],
      [
        report('express-bare', stats(20_000, 2, 8)),
        report('gateway-read', stats(100, 50, 80)),
        report('gateway-message', { ...stats(0, 0, 0), count: 0 }),
      ],
    );
    expect(ratios.map(({ requests_per_s, p50, p99 }) => [requests_per_s, p50, p99])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });

  it('reports the auth overhead as gateway-authenticated over gateway-public', () => {
    const ratios = computeRatios(RATIOS.slice(0, 2), [
      report('express-bare', stats(20_000, 2, 8)),
      report('gateway-readyz', stats(4_000, 10, 40)),
      report('gateway-public', stats(10_000, 4, 10)),
      report('gateway-authenticated', stats(8_000, 5, 15)),
    ]);
    expect(ratios).toEqual([
      {
        subject: 'gateway-readyz',
        baseline: 'express-bare',
        requests_per_s: 0.2,
        p50: 5,
        p99: 5,
      },
      {
        subject: 'gateway-authenticated',
        baseline: 'gateway-public',
        requests_per_s: 0.8,
        p50: 1.25,
        p99: 1.5,
      },
    ]);
    // A blank line parts the two subjects.
    expect(formatRatiosTable(ratios).split('\n')[4]?.split(/\s+/)).toEqual([
      'gateway-authenticated',
      '/',
      'gateway-public',
      '0.800x',
      '1.250x',
      '1.500x',
    ]);
  });
});
