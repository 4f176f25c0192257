// A Prometheus of the bench's own: it scrapes `/metrics` of every process of a stack on a fixed
// interval while the telemetry scenarios run, so that what they measure includes what a real
// scrape costs the services (collecting every instrument, serializing the exposition), not only
// recording into the instruments.

/**
 * How often the telemetry scenarios' stack is scraped: 15 s, the shortest interval in common use
 * (Prometheus's own default is 1 min, kube-prometheus-stack's 30 s, the chart's PodMonitor 30 s).
 */
export const SCRAPE_INTERVAL_MS = 15_000;
/** A scrape that takes longer than this counts as failed, as Prometheus's scrape_timeout would. */
const SCRAPE_TIMEOUT_MS = 10_000;

/** What the scrapes so far came to, over every target. */
export interface ScrapeTotals {
  /** Scrapes answered 200 with a Prometheus exposition. */
  ok: number;
  failed: number;
  /** The first failure's reason (target and why). */
  firstFailure?: string;
  /** The bodies of the successful scrapes, in bytes. */
  bytes: number;
  /** Their time from request to the end of the body, in milliseconds. */
  ms: number;
}

/** Totals now minus totals then: what the scrapes between two readings came to. */
export function scrapesBetween(before: ScrapeTotals, after: ScrapeTotals): ScrapeTotals {
  return {
    ok: after.ok - before.ok,
    failed: after.failed - before.failed,
    ...(after.failed > before.failed && after.firstFailure !== undefined
      ? { firstFailure: after.firstFailure }
      : {}),
    bytes: after.bytes - before.bytes,
    ms: after.ms - before.ms,
  };
}

/**
 * Whether a scrape's answer is what Prometheus takes: 200, the text format's content type, and
 * at least one metric family. Undefined when it is, else why not.
 */
export function scrapeProblem(
  status: number,
  contentType: string | null,
  body: string,
): string | undefined {
  if (status !== 200) return `HTTP ${status}`;
  if (!contentType?.startsWith('text/plain')) return `content-type ${contentType ?? 'none'}`;
  if (!/^# TYPE \S+ (counter|gauge|histogram|summary|untyped)$/m.test(body)) {
    return 'no metric family in the exposition';
  }
  return undefined;
}

export interface Scraper {
  /** The totals so far. */
  totals(): ScrapeTotals;
  /** One scrape of every target now, as the interval makes them (for tests and the first scrape). */
  scrapeAll(): Promise<void>;
  /** No more scrapes; resolves once those under way have ended. */
  stop(): Promise<void>;
}

/**
 * Scrapes every one of `targets` (`http://127.0.0.1:<health port>/metrics`) every `intervalMs`,
 * like Prometheus: a target whose last scrape has not ended yet is skipped, not scraped twice.
 * `intervalMs` 0 scrapes only when asked (`scrapeAll`).
 */
export function startScraper(targets: readonly string[], intervalMs: number): Scraper {
  const totals: ScrapeTotals = { ok: 0, failed: 0, bytes: 0, ms: 0 };
  const busy = new Map<string, Promise<void>>();
  const fail = (target: string, reason: string) => {
    totals.failed += 1;
    totals.firstFailure ??= `${target}: ${reason}`;
  };
  const scrape = async (target: string) => {
    const started = performance.now();
    try {
      const res = await fetch(target, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) });
      const body = await res.text();
      const problem = scrapeProblem(res.status, res.headers.get('content-type'), body);
      if (problem !== undefined) return fail(target, problem);
      totals.ok += 1;
      totals.bytes += Buffer.byteLength(body);
      totals.ms += performance.now() - started;
    } catch (error) {
      fail(target, error instanceof Error ? error.message : String(error));
    }
  };
  const scrapeAll = async () => {
    await Promise.all(
      targets.map((target) => {
        const under = busy.get(target);
        if (under) return under;
        const next = scrape(target).finally(() => busy.delete(target));
        busy.set(target, next);
        return next;
      }),
    );
  };
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          void scrapeAll();
        }, intervalMs)
      : undefined;
  return {
    totals: () => ({ ...totals }),
    scrapeAll,
    async stop() {
      clearInterval(timer);
      await Promise.all(busy.values());
    },
  };
}
