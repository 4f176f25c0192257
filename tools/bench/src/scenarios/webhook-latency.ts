// Webhook latency at half the dispatcher's peak: the setup of the peak scenarios
// (webhook-deliveries.ts), but the events are published at a fixed rate, half the deliveries per
// second the peak of the same size measured earlier in the run, whatever the dispatcher does
// meanwhile (an open loop). At the peak every delivery queues behind others; here the figures
// are what an event costs when the dispatcher has room, as issue 15 asks.
import type { GatewayStack } from '../fixtures/gateway-stack.ts';
import { formatRate } from '../format.ts';
import { describeError, paceOpenLoop, type OpenLoop } from '../measure.ts';
import type { Fixture, ObservedLoad, Scenario, ScenarioReport } from '../types.ts';
import {
  DELIVERY_TIMEOUT_MS,
  dispatcherSettings,
  recordError,
  setUpDeliveries,
} from './webhook-deliveries.ts';

/** The sizes whose latency is measured: those issue 15 sets targets for. */
export const LATENCY_ENDPOINT_COUNTS = [1, 100] as const;
/** Issue 15's targets, event to receipt, at half the measured peak. */
export const LATENCY_TARGET_MS = { p50: 50, p99: 500 } as const;

export function peakScenarioName(endpoints: number): string {
  return `webhook-deliveries-${endpoints}`;
}

export function latencyScenarioName(endpoints: number): string {
  return `webhook-latency-${endpoints}`;
}

export interface LatencyRate {
  /** Events published per second. */
  eventsPerS: number;
  /** The deliveries per second they make: `eventsPerS` × the endpoints. */
  deliveriesPerS: number;
  /** Where the rate came from, for the progress line. */
  from: string;
}

/**
 * The rate of the latency scenario of `endpoints` endpoints: `fixed` deliveries per second
 * (BENCH_WEBHOOK_RATE) when set, else half the deliveries per second of that size's peak scenario
 * among the `earlier` reports of the run; in events, deliveries ÷ endpoints. Throws, saying what
 * to do, when there is neither.
 */
export function latencyRate(
  endpoints: number,
  earlier: readonly ScenarioReport[],
  fixed: number | null,
): LatencyRate {
  if (fixed !== null) {
    return {
      eventsPerS: fixed / endpoints,
      deliveriesPerS: fixed,
      from: `BENCH_WEBHOOK_RATE=${fixed}`,
    };
  }
  const peakName = peakScenarioName(endpoints);
  const how =
    `name ${peakName} before ${latencyScenarioName(endpoints)} in BENCH_ONLY, ` +
    'or set BENCH_WEBHOOK_RATE (deliveries per second)';
  const peak = earlier.find((report) => report.name === peakName);
  if (!peak) {
    throw new Error(`runs at half the peak that ${peakName} measures, and it did not run: ${how}`);
  }
  const measured = peak.stats?.count ? peak.stats.requests_per_s : 0;
  if (!peak.stats || measured <= 0) {
    throw new Error(
      `runs at half the peak that ${peakName} measures, and it measured none ` +
        `(${peak.failure ?? 'no delivery completed'}): ${how}`,
    );
  }
  const deliveriesPerS = measured / 2;
  return {
    eventsPerS: deliveriesPerS / endpoints,
    deliveriesPerS,
    from:
      `half of ${peakName}'s ${formatRate(measured)} deliveries/s` +
      (peak.problems.length > 0 ? ' (a run with problems: see its report)' : ''),
  };
}

/**
 * The event-to-receipt latency of deliveries to `endpoints` endpoints at half the peak (or at
 * `fixedRate` deliveries per second): every delivery's latency counts from its event's scheduled
 * publish time, so a publisher that falls behind shows as latency rather than as fewer events.
 */
export function webhookLatency(
  stack: Fixture<GatewayStack>,
  endpoints: number,
  logLevel: string,
  fixedRate: number | null,
): Scenario {
  const name = latencyScenarioName(endpoints);
  const peak = peakScenarioName(endpoints);
  return {
    name,
    // Setup runs a round of the load, which warms up every part of the path.
    warmupMs: 0,
    description:
      `webhook deliveries of request.created to ${endpoints} endpoint(s) as in ${peak}, at half its peak: ` +
      `events published at a fixed rate, half the deliveries/s ${peak} measured earlier in the run (or BENCH_WEBHOOK_RATE deliveries/s) ÷ ${endpoints}, for the run's duration (open loop); ` +
      `latency of every delivery from its event's scheduled publish time to the receipt; ` +
      `issue 15's target p50 ≤ ${LATENCY_TARGET_MS.p50} ms, p99 ≤ ${LATENCY_TARGET_MS.p99} ms; ${dispatcherSettings(logLevel)}`,
    uses: [stack],
    async setup(ctx) {
      // Before any setup work: without a rate there is nothing to measure.
      const rate = latencyRate(endpoints, ctx.earlier, fixedRate);
      ctx.progress(
        `${formatRate(rate.eventsPerS)} events/s, ${formatRate(rate.deliveriesPerS)} deliveries/s: ${rate.from}`,
      );
      const rig = await setUpDeliveries(ctx, stack, endpoints, name);
      let loop: OpenLoop | undefined;
      const load: ObservedLoad = {
        kind: 'observed',
        start(measurement, options) {
          rig.recordInto(measurement);
          const waiting = {
            timeoutMs: DELIVERY_TIMEOUT_MS,
            ...(options.signal ? { signal: options.signal } : {}),
          };
          loop = paceOpenLoop(
            async (scheduledAt) => {
              let requestId: string;
              try {
                requestId = await rig.source.publish();
              } catch (error) {
                recordError(measurement, `publish: ${describeError(error)}`);
                return;
              }
              await rig.tracker.expect(requestId, scheduledAt, measurement, waiting);
            },
            { ratePerS: rate.eventsPerS, ...(options.signal ? { signal: options.signal } : {}) },
          );
        },
        async stop() {
          await loop?.stop();
          rig.settle();
          ctx.progress(`published ${loop?.started ?? 0} events`);
        },
      };
      return load;
    },
  };
}
