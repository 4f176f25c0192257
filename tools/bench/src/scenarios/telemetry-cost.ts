// What metrics and tracing cost (issue 38): gateway-create and webhook-deliveries-1 on a stack
// with both off (METRICS=off: no meter provider at all; no OTLP endpoint, so no spans are
// recorded) against the same scenarios on a stack with both on as in production: every process's
// `/metrics` scraped every SCRAPE_INTERVAL_MS as Prometheus would, and every span exported over
// OTLP/HTTP with the SDK's default batch processor to a real Jaeger (TRACING=jaeger: the testkit's
// Jaeger, in memory). Each pair runs on fresh stacks of its own, one after the other, with the
// same settings otherwise, so the ratio is the price of the telemetry alone.
import { ALL_SERVICES } from '@handoff/contracts';
import { eventually, jaegerClient } from '@handoff/testkit';
import { availableParallelism, loadavg } from 'node:os';
import { cpuSecondsOf } from '../cpu.ts';
import { gatewayStack, type GatewayStack } from '../fixtures/gateway-stack.ts';
import { formatRatio } from '../format.ts';
import { SCRAPE_INTERVAL_MS, scrapesBetween } from '../scrape.ts';
import type { Fixture, RatioSpec, Scenario } from '../types.ts';
import { gatewayCreate } from './gateway-requests.ts';
import { webhookDeliveries } from './webhook-deliveries.ts';

export const TELEMETRY_OFF = '-telemetry-off';
export const TELEMETRY_ON = '-telemetry-on';
/** Issue 38's target: each scenario with both on at least this share of its rate with both off. */
export const TELEMETRY_TARGET = 0.9;
/** How long the spans of the measurement may take to show in Jaeger (the SDK batches for 5 s). */
const SPANS_BUDGET_MS = 60_000;

/** The stacks of the comparison: one with metrics and tracing off, one with both on. */
export function telemetryStacks(logLevel: string): {
  off: Fixture<GatewayStack>;
  on: Fixture<GatewayStack>;
} {
  return {
    off: gatewayStack(logLevel, {
      name: `gateway-stack${TELEMETRY_OFF}`,
      env: () => ({
        METRICS: 'off',
        OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
        OTEL_TRACES_EXPORTER: undefined,
      }),
    }),
    on: gatewayStack(logLevel, {
      name: `gateway-stack${TELEMETRY_ON}`,
      tracing: 'jaeger',
      // In production the collector runs on machines of its own; on the bench's it would take
      // the services' CPU. At the lowest priority it takes only what they leave: what the
      // services pay is recording, batching and sending their spans, as in production.
      tracesPriority: 19,
      scrapeEveryMs: SCRAPE_INTERVAL_MS,
      // As production runs: metrics on, the SDK's own batch settings.
      env: () => ({
        METRICS: 'on',
        OTEL_TRACES_EXPORTER: undefined,
        OTEL_BSP_SCHEDULE_DELAY: undefined,
      }),
    }),
  };
}

/**
 * The four scenarios, both off first: a stack is torn down after its last scenario, so the two
 * stacks never run at once.
 */
export function telemetryScenarios(logLevel: string): Scenario[] {
  const { off, on } = telemetryStacks(logLevel);
  const offDescribed = (scenario: Scenario): Scenario => ({
    ...scenario,
    description: `${scenario.description}; METRICS=off and no OTLP endpoint (no spans recorded); a stack of its own`,
  });
  return [
    withServicesCpu(offDescribed(gatewayCreate(off, logLevel, TELEMETRY_OFF)), off),
    withServicesCpu(
      offDescribed(webhookDeliveries(off, 1, logLevel, { suffix: TELEMETRY_OFF })),
      off,
    ),
    withServicesCpu(
      checkedTelemetry(gatewayCreate(on, logLevel, TELEMETRY_ON), on, ['gateway', 'intake']),
      on,
    ),
    withServicesCpu(
      checkedTelemetry(webhookDeliveries(on, 1, logLevel, { suffix: TELEMETRY_ON }), on, [
        'webhook-dispatcher',
      ]),
      on,
    ),
  ].map(withLoadAverage);
}

/**
 * `scenario` with what each service process spent in CPU (user and system, from /proc) over the
 * measured window, per operation, as figures, and their sum. A pair's rates move with the
 * machine from run to run; what telemetry adds to each operation's CPU moves much less, and says
 * which process pays it. A process that was restarted meanwhile, or that spent nothing, is left
 * out; where /proc is missing there are no such figures.
 */
function withServicesCpu(scenario: Scenario, stack: Fixture<GatewayStack>): Scenario {
  return {
    ...scenario,
    async measuring(ctx) {
      const own = await scenario.measuring?.(ctx);
      const gateway = await ctx.use(stack);
      const before = await servicesCpu(gateway);
      return async (measurement) => {
        await own?.(measurement);
        const after = await servicesCpu(gateway);
        if (measurement.ok === 0) return;
        let total = 0;
        for (const [service, start] of before) {
          const end = after.get(service);
          if (!end || end.pid !== start.pid || end.seconds <= start.seconds) continue;
          const spent = end.seconds - start.seconds;
          total += spent;
          ctx.figure({
            name: `${service} CPU`,
            value: (spent * 1e6) / measurement.ok,
            unit: 'µs per op',
            note: 'user + system, from /proc, over the measured window',
          });
        }
        if (total > 0) {
          ctx.figure({
            name: 'services CPU',
            value: (total * 1e6) / measurement.ok,
            unit: 'µs per op',
            note: 'every service process together',
          });
        }
      };
    },
  };
}

/** Each service process's pid and CPU seconds so far; none for a process that is down. */
async function servicesCpu(
  stack: GatewayStack,
): Promise<Map<string, { pid: number; seconds: number }>> {
  const read = new Map<string, { pid: number; seconds: number }>();
  for (const service of ALL_SERVICES) {
    const pid = stack.pid(service);
    const seconds = pid === undefined ? undefined : await cpuSecondsOf(pid);
    if (pid !== undefined && seconds !== undefined) read.set(service, { pid, seconds });
  }
  return read;
}

/**
 * `scenario` with the machine's load average at its end as a figure: the two halves of the
 * comparison run one after the other, and on a shared machine what else ran meanwhile can move
 * their ratio more than the telemetry does.
 */
function withLoadAverage(scenario: Scenario): Scenario {
  return {
    ...scenario,
    async setup(ctx) {
      const load = await scenario.setup(ctx);
      ctx.teardown(() =>
        ctx.figure({
          name: 'load average',
          value: loadavg()[0] ?? 0,
          unit: `on ${availableParallelism()} cores`,
          note: "the machine's, over the last minute, at its end",
        }),
      );
      return load;
    },
  };
}

export const TELEMETRY_RATIOS: readonly RatioSpec[] = [
  'gateway-create',
  'webhook-deliveries-1',
].map((scenario) => ({
  subject: `${scenario}${TELEMETRY_ON}`,
  baseline: `${scenario}${TELEMETRY_OFF}`,
  note: `metrics on and every process's /metrics scraped every ${SCRAPE_INTERVAL_MS / 1_000} s, spans over OTLP to Jaeger (default batch processor), against METRICS=off and no OTLP endpoint, each on a fresh stack; issue 38's target: req/s ≥ ${formatRatio(TELEMETRY_TARGET)}`,
}));

/**
 * `scenario` on the telemetry-on stack, checked: a measurement whose scrapes failed, or whose
 * spans never reached Jaeger, did not measure what it says, and fails its check. Its figures:
 * the scrapes made while it ran and what they cost.
 */
function checkedTelemetry(
  scenario: Scenario,
  stack: Fixture<GatewayStack>,
  services: readonly string[],
): Scenario {
  return {
    ...scenario,
    description: `${scenario.description}; metrics on, every process's /metrics scraped every ${SCRAPE_INTERVAL_MS / 1_000} s, spans to Jaeger over OTLP/HTTP (batch processor); a stack of its own`,
    async setup(ctx) {
      const load = await scenario.setup(ctx);
      const { scraper, jaegerUrl } = await ctx.use(stack);
      if (!scraper || !jaegerUrl) throw new Error('the stack neither scrapes nor traces');
      const before = scraper.totals();
      const sinceMs = Date.now();
      // Registered after the scenario's own steps, so it runs before them (last first).
      ctx.teardown(async () => {
        const scrapes = scrapesBetween(before, scraper.totals());
        ctx.figure({
          name: 'scraped',
          value: scrapes.ok,
          unit: 'scrapes',
          note: `of every process's /metrics while it ran, every ${SCRAPE_INTERVAL_MS / 1_000} s`,
        });
        if (scrapes.ok > 0) {
          ctx.figure({
            name: 'scrape time',
            value: scrapes.ms / scrapes.ok,
            unit: 'ms',
            note: 'mean',
          });
          ctx.figure({
            name: 'exposition',
            value: scrapes.bytes / scrapes.ok / 1_024,
            unit: 'KiB',
            note: 'mean per scrape',
          });
        }
        if (scrapes.failed > 0) {
          throw new Error(`${scrapes.failed} scrape(s) failed; the first: ${scrapes.firstFailure}`);
        }
        // At Prometheus's pace a run of a few seconds may fall between two scrapes: what it
        // pays for them is their share, as in production. The scraper must work, though.
        if (scraper.totals().ok === 0) throw new Error('no scrape since the stack was ready');
        const client = jaegerClient(jaegerUrl);
        for (const service of services) {
          const traces = await eventually(
            async () => {
              const found = await client.search({ service, sinceMs, limit: 20 });
              return found.length > 0 ? found : undefined;
            },
            { timeoutMs: SPANS_BUDGET_MS, intervalMs: 500, what: `${service}'s spans in Jaeger` },
          );
          ctx.figure({
            name: `${service} spans`,
            value: traces.reduce((total, trace) => total + trace.spans.length, 0) / traces.length,
            unit: 'per trace',
            note: `mean of its newest ${traces.length} traces in Jaeger`,
          });
        }
      });
      return load;
    },
  };
}
