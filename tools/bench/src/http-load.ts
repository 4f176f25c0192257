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
  const shares = connectionShares(load, options.connections);
  const results = await Promise.all(
    shares.map((share) => runAutocannon(share.load, share.connections, measurement, options)),
  );
  measurement.elapsedMs = performance.now() - started;
  // autocannon's error count includes its timeouts.
  measurement.errors = results.reduce((sum, result) => sum + result.errors, 0);
  return measurement;
}

/**
 * The load of each origin and its connections: connection i on `origins[i % n]`, with the target
 * `perConnection` gives connection i; the whole load on `url` without origins.
 */
export function connectionShares(
  load: HttpLoad,
  connections: number,
): { load: HttpLoad; connections: number }[] {
  const origins = load.origins ?? [];
  if (origins.length <= 1) return [{ load: onOrigin(load, origins[0]), connections }];
  return origins.flatMap((origin, index) => {
    const mine = Array.from(
      { length: Math.ceil((connections - index) / origins.length) },
      (_, j) => index + j * origins.length,
    );
    if (mine.length === 0) return [];
    const targets = load.perConnection;
    return [
      {
        load: {
          ...onOrigin(load, origin),
          ...(targets && targets.length > 0
            ? { perConnection: mine.map((i) => targets[i % targets.length] ?? { path: '/' }) }
            : {}),
        },
        connections: mine.length,
      },
    ];
  });
}

/** The load with its URL on `origin` (path and query kept), and no origins of its own. */
function onOrigin(load: HttpLoad, origin: string | undefined): HttpLoad {
  const rest = { ...load };
  delete rest.origins;
  if (origin === undefined) return rest;
  const url = new URL(load.url);
  return { ...rest, url: `${origin}${url.pathname}${url.search}` };
}

/** One autocannon run of `connections` on one server, recording into `measurement`. */
function runAutocannon(
  load: HttpLoad,
  connections: number,
  measurement: Measurement,
  options: LoadOptions,
): Promise<autocannon.Result> {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        method: load.method ?? 'GET',
        ...(load.headers ? { headers: load.headers } : {}),
        ...(load.body === undefined ? {} : { body: load.body }),
        connections,
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
