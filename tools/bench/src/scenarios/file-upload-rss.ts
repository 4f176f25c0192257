// What streaming an upload costs the gateway in memory (docs/files.md: it holds at most a few
// 255 KiB chunks of any upload, whatever the file's size): 20 uploads of 50 MiB at once, each
// body made as it is sent, each into a fresh request, while the gateway process's resident memory
// is read every 50 ms from outside. The figure is its peak during the uploads minus its idle just
// before; the rate (uploads/s, and MiB/s) is the closed loop's.
import { FILE_LIMITS } from '@handoff/contracts';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { FileClient, MIB, streamedPng } from '../fixtures/file-api.ts';
import { gatewayStack, type GatewayStack } from '../fixtures/gateway-stack.ts';
import { formatBytes } from '../format.ts';
import { describeError, recordNs } from '../measure.ts';
import { expectedCalls, FreshPool, PoolExhaustedError } from '../fresh-pool.ts';
import { lastBefore, peakSince, RssSampler } from '../rss.ts';
import type { Fixture, Measurement, ObservedLoad, Scenario, ScenarioContext } from '../types.ts';
import { makeRequests } from './file-transfer.ts';

/** Uploads under way at once. */
export const RSS_UPLOADS = 20;
/** Each upload's size: under the per-file limit, so each is taken whole. */
export const RSS_FILE_BYTES = 50 * MIB;
/** Issue 35's bound on the gateway's memory above idle during those uploads. */
export const RSS_TARGET_MIB = 100;
const SAMPLE_INTERVAL_MS = 50;
/**
 * The stack of its own these uploads run on, at the gateway's defaults: an upload is held to no
 * whole-request deadline while its bytes keep coming, and its chunks wait for the owning service
 * longer than a call does (FILE_BUS_TIMEOUT_MS).
 */
export function filesStack(logLevel: string): Fixture<GatewayStack> {
  return gatewayStack(logLevel, { name: 'gateway-stack-files' });
}
/** A generous estimate of the uploads' MiB/s through the gateway, for how many requests to make. */
const RATE_ESTIMATE_MIB_PER_S = 100;

const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/** The figures of one run: idle, peak, and the rise the target bounds. */
function recordFigures(ctx: ScenarioContext, sampler: RssSampler, startedAt: number): void {
  const pids = sampler.pids();
  if (pids.length > 1) {
    throw new Error(`the gateway restarted during the uploads (pids ${pids.join(', ')})`);
  }
  const idle = lastBefore(sampler.samples, startedAt);
  const peak = peakSince(sampler.samples, startedAt);
  if (idle === undefined || peak === undefined) {
    throw new Error("the gateway's memory could not be read before and during the uploads");
  }
  const rise = mib(peak.bytes - idle.bytes);
  ctx.figure({ name: 'gateway RSS idle', value: mib(idle.bytes), unit: 'MiB' });
  ctx.figure({ name: 'gateway RSS peak', value: mib(peak.bytes), unit: 'MiB' });
  ctx.figure({
    name: 'gateway RSS above idle',
    value: rise,
    unit: 'MiB',
    note: `peak − idle, ${sampler.samples.length} samples every ${SAMPLE_INTERVAL_MS} ms; target < ${RSS_TARGET_MIB} MiB: ${rise < RSS_TARGET_MIB ? 'met' : 'MISSED'}`,
  });
}

/**
 * `connections` loops, each uploading a streamed 50 MiB into the next fresh request until stopped;
 * stopping lets the uploads under way finish, then records the memory figures.
 */
function uploadLoad(
  ctx: ScenarioContext,
  client: FileClient,
  requests: FreshPool<{ id: string; token: string }>,
  sampler: RssSampler,
  fileBytes: number,
): ObservedLoad {
  let stopping = false;
  let loops: Promise<void>[] = [];
  let startedAt = 0;
  const loop = async (measurement: Measurement, signal: AbortSignal | undefined) => {
    while (!stopping && !signal?.aborted) {
      const t0 = process.hrtime.bigint();
      try {
        const target = requests.take();
        const body = { stream: streamedPng(fileBytes), length: fileBytes };
        await client.upload(target, body);
        recordNs(measurement, process.hrtime.bigint() - t0);
        measurement.ok += 1;
      } catch (error) {
        measurement.errors += 1;
        measurement.firstError ??= describeError(error);
        if (error instanceof PoolExhaustedError) return;
        await yieldToLoop();
      }
    }
  };
  return {
    kind: 'observed',
    start(measurement, options) {
      startedAt = performance.now();
      loops = Array.from({ length: options.connections }, () => loop(measurement, options.signal));
    },
    async stop() {
      stopping = true;
      await Promise.all(loops);
      await sampler.stop();
      recordFigures(ctx, sampler, startedAt);
    },
  };
}

/** The uploads' shape; the defaults are the scenario's (a test makes them small). */
export interface RssUploads {
  uploads?: number;
  fileBytes?: number;
}

export function fileUploadRss(
  stack: Fixture<GatewayStack>,
  logLevel: string,
  { uploads = RSS_UPLOADS, fileBytes = RSS_FILE_BYTES }: RssUploads = {},
): Scenario {
  if (fileBytes > FILE_LIMITS.maxFileBytes) throw new Error('uploads over the per-file limit');
  return {
    name: 'file-upload-rss',
    description: `${uploads} gateway uploads of ${formatBytes(fileBytes)} at once (streamed bodies, each into a fresh request), the gateway process's RSS read every ${SAMPLE_INTERVAL_MS} ms; its peak minus its idle just before (target < ${RSS_TARGET_MIB} MiB), shared full stack, LOG_LEVEL=${logLevel}; closed loop`,
    connections: uploads,
    // The figure is the rise from idle: a warm-up of the same uploads would only add to the time.
    warmupMs: 0,
    bytesPerOperation: fileBytes,
    uses: [stack],
    async setup(ctx) {
      const shared = await ctx.use(stack);
      const uploadsPerS = (RATE_ESTIMATE_MIB_PER_S * MIB) / fileBytes;
      const count = expectedCalls(uploadsPerS, ctx) + ctx.connections;
      const requests = new FreshPool(
        await makeRequests(ctx, shared, count),
        'fresh requests',
        `${RATE_ESTIMATE_MIB_PER_S} MiB/s`,
      );
      const client = new FileClient(shared, ctx.connections);
      ctx.teardown(() => client.close());
      const sampler = new RssSampler(() => shared.pid('gateway'), SAMPLE_INTERVAL_MS);
      if ((await sampler.sample()) === undefined) {
        throw new Error(`the gateway's memory cannot be read (pid ${shared.pid('gateway')})`);
      }
      sampler.start();
      ctx.teardown(() => sampler.stop());
      return uploadLoad(ctx, client, requests, sampler, fileBytes);
    },
  };
}
