import autocannon from 'autocannon';
import { describeError, emptyMeasurement, recordNs } from './measure.ts';
import type { HttpLoad, HttpTarget, LoadOptions, Measurement } from './types.ts';

/** Seconds autocannon waits for a response before counting a timeout (an error). */
const REQUEST_TIMEOUT_S = 10;

/**
 * Loads an HTTP endpoint with autocannon: `connections` keep-alive connections, each sending its
 * next request as soon as the previous answer arrived, for `durationMs`.
 *
 * Latencies come from autocannon's `response` event (a float in ms) and go into the same kind of
 * nanosecond histogram as the closed-loop runner's: autocannon's own histogram keeps whole
 * milliseconds only, too coarse for sub-millisecond handlers.
 */
export async function runHttpLoad(load: HttpLoad, options: LoadOptions): Promise<Measurement> {
  const measurement = emptyMeasurement();
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        method: load.method ?? 'GET',
        ...(load.headers ? { headers: load.headers } : {}),
        ...(load.body === undefined ? {} : { body: load.body }),
        connections: options.connections,
        duration: options.durationMs / 1_000,
        timeout: REQUEST_TIMEOUT_S,
        ...(load.perConnection ? { setupClient: spreadOver(load, load.perConnection) } : {}),
      },
      (error, res) => (error ? reject(asError(error)) : resolve(res)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      const code = String(statusCode);
      measurement.statusCodes[code] = (measurement.statusCodes[code] ?? 0) + 1;
      const success = statusCode >= 200 && statusCode < 300;
      if (success) {
        measurement.ok += 1;
        recordNs(measurement, responseTimeMs * 1_000_000);
      } else {
        measurement.non2xx += 1;
      }
      if (load.expectStatus === undefined ? !success : statusCode !== load.expectStatus) {
        measurement.unexpectedStatus += 1;
      }
    });
    instance.on('reqError', (error) => {
      measurement.firstError ??= describeError(error);
    });
    const stop = () => instance.stop();
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    instance.once('done', () => options.signal?.removeEventListener('abort', stop));
  });
  measurement.elapsedMs = performance.now() - started;
  // autocannon's error count includes its timeouts.
  measurement.errors = result.errors;
  return measurement;
}

/**
 * Hands out `items` in turn, one per call: the first call gets the first item, and so on, starting
 * over after the last.
 */
export function roundRobin<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('nothing to hand out in turn');
  let next = 0;
  return () => {
    const item = items[next % items.length];
    next += 1;
    if (item === undefined) throw new Error('a hole in the items handed out in turn');
    return item;
  };
}

/**
 * An autocannon `setupClient` that gives each connection (set up one after the other, once each)
 * the next target in turn, for good: the load's method and body, the target's path, and the
 * target's headers over the load's own.
 */
function spreadOver(
  load: HttpLoad,
  targets: readonly HttpTarget[],
): (client: autocannon.Client) => void {
  const nextTarget = roundRobin(targets);
  return (client) => {
    const target = nextTarget();
    client.setRequests([
      {
        method: load.method ?? 'GET',
        path: target.path,
        headers: { ...load.headers, ...target.headers },
        ...(load.body === undefined ? {} : { body: load.body }),
      },
    ]);
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
