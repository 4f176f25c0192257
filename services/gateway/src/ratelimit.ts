import { ensureStream } from '@handoff/bus';
import { RATE_LIMIT_STREAM } from '@handoff/contracts';
import { StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { createHash } from 'node:crypto';
import { boundedCache } from '@handoff/runtime';

export interface RateLimitPolicy {
  /** One subject token: letters, digits, `_` and `-`. */
  name: string;
  limit: number;
  /** At most {@link MAX_WINDOW_SECONDS}. */
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends, at least 1. */
  resetSeconds: number;
  policy: RateLimitPolicy;
  /** Set when the counter could not be reached and the request was let through; log it. */
  error?: Error;
}

export interface RateLimiter {
  hit(policy: RateLimitPolicy, key: string): Promise<RateLimitResult>;
}

export const MAX_WINDOW_SECONDS = 3600;
const DEFAULT_TIMEOUT_MS = 250;
const SUBJECT_PREFIX = RATE_LIMIT_STREAM.subjects[0].replace(/\.>$/, '');
const TOKEN = /^[A-Za-z0-9_-]+$/;
const MAX_KEY_LENGTH = 64;
// Tokens of keys that had to be rewritten end like this; clean keys that do are rewritten too.
const HASHED_SUFFIX = /-h[0-9a-f]{16}$/;

const nanos = (seconds: number) => seconds * 1_000_000_000;

/**
 * Creates the counter stream, or brings an existing one to these settings. Safe to run from every
 * replica at once. A stream made without `allow_msg_counter` is refused (the flag cannot be turned
 * on later); counters are ephemeral, so deleting it to have it made again loses nothing.
 */
export async function ensureRateLimitStream(jsm: JetStreamManager, replicas = 1): Promise<void> {
  await ensureStream(jsm, {
    name: RATE_LIMIT_STREAM.name,
    subjects: [...RATE_LIMIT_STREAM.subjects],
    allow_msg_counter: true,
    // The window index is in the subject, so a counter only has to outlive one window;
    // doubling the longest window leaves room for replicas whose clocks disagree.
    max_age: nanos(2 * MAX_WINDOW_SECONDS),
    // Each increment stores the new total; only the latest one per subject is needed.
    max_msgs_per_subject: 1,
    allow_direct: true,
    // Counters live for at most one window and are rebuilt by the next hits, so memory storage
    // (no disk writes on the hot path) is enough.
    storage: StorageType.Memory,
    // NATS_STREAM_REPLICAS: the counters survive losing a node of a cluster.
    num_replicas: replicas,
  });
}

/** How long a counter's total, as last read, answers hits here without asking it again. */
export const LOCAL_ANSWER_MS = 100;
/** How often the hits answered here are added to the shared counters. */
export const FLUSH_MS = 25;
/**
 * Below this share of its limit, a counter's hits are answered here and added in batches. Each
 * replica answers at most this share on its own, so up to 1 ÷ share replicas can never together
 * pass the limit that way; more replicas hit at once within a flush could pass it by
 * (replicas × share − 1) × limit, once, before every hit asks.
 */
export const LOCAL_SHARE = 0.25;
/** Counters whose totals one process holds at once (the least recently read go first). */
const HELD_COUNTERS = 100_000;

/** What this process knows of one shared counter (a policy, a key, a window). */
interface Counter {
  /** The total the counter last answered. */
  known: number;
  /** Hits answered here since, not yet added to it. */
  pending: number;
  /** Hits on their way to it. */
  sending: number;
}

/**
 * Fixed-window limits over JetStream counters, shared by every gateway replica: each hit adds to
 * `handoff.ratelimit.<policy>.<key>.<window index>` and gets the new total back atomically.
 *
 * Far below its limit a counter is not asked at every hit: a replica that read its total within
 * {@link LOCAL_ANSWER_MS}, and knows it (with the hits answered here since) under
 * {@link LOCAL_SHARE} of the limit, answers from that and adds its hits every {@link FLUSH_MS},
 * several in one increment. From a quarter of the limit on, and on a key's first hit of a
 * window, every hit asks the counter, as before (carrying the hits not yet added): the count is
 * exact where it decides. Only the `remaining` shown far below the limit may miss what other
 * replicas counted in the last 100 ms. Asking at
 * every hit cost the gateway a NATS round trip per call, about a tenth of its CPU on a cached
 * read (issue 36).
 *
 * When the counter cannot be reached (NATS down, stream missing, slow reply) the hit is allowed:
 * rate limiting protects capacity, and refusing every call because its own store is unavailable
 * would turn a limiter outage into a full API outage. The result then carries `error`.
 */
export function createRateLimiter(
  nc: NatsConnection,
  options: { timeoutMs?: number; now?: () => number } = {},
): RateLimiter & { flush(): Promise<void> } {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  // Held only while their totals may answer hits here; the ones with hits to add wait in
  // `unsent` until the next flush, whatever the cache lets go of meanwhile.
  const counters = boundedCache<string, Counter>({
    max: HELD_COUNTERS,
    ttlMs: LOCAL_ANSWER_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  const unsent = new Map<string, Counter>();
  let timer: NodeJS.Timeout | undefined;

  /** Adds the hits answered here to their counters, several in one increment each. */
  const flush = async () => {
    timer = undefined;
    const due = [...unsent].filter(([, counter]) => counter.pending > 0);
    unsent.clear();
    const sends = due.map(async ([subject, counter]) => {
      const hits = counter.pending;
      counter.pending = 0;
      counter.sending += hits;
      try {
        const total = await increment(nc, subject, timeout, hits);
        counter.known = Math.max(counter.known, total);
      } catch {
        // Kept for the next flush; the next hit that asks learns of the outage.
        counter.pending += hits;
        unsent.set(subject, counter);
        later();
      } finally {
        counter.sending -= hits;
      }
    });
    await Promise.all(sends);
  };
  const later = () => {
    timer ??= setTimeout(() => void flush(), FLUSH_MS);
    timer.unref();
  };

  return {
    async hit(policy, key) {
      assertPolicy(policy);
      const seconds = now() / 1000;
      const window = Math.floor(seconds / policy.windowSeconds);
      const resetSeconds = Math.max(1, Math.ceil((window + 1) * policy.windowSeconds - seconds));
      const subject = `${SUBJECT_PREFIX}.${policy.name}.${keyToken(key)}.${window}`;
      const base = { limit: policy.limit, resetSeconds, policy };

      const counter = counters.get(subject);
      if (counter) {
        const total = counter.known + counter.sending + counter.pending + 1;
        if (total < policy.limit * LOCAL_SHARE) {
          counter.pending += 1;
          unsent.set(subject, counter);
          later();
          return { ...base, allowed: true, remaining: policy.limit - total };
        }
      }

      // The hits answered here and not yet added go with this one: the total it gets back is
      // exact, this hit the last of them.
      const carried = counter?.pending ?? 0;
      if (counter) {
        counter.pending = 0;
        counter.sending += carried;
      }
      let total: number;
      try {
        total = await increment(nc, subject, timeout, carried + 1);
      } catch (error) {
        if (counter && carried > 0) {
          counter.sending -= carried;
          counter.pending += carried;
          unsent.set(subject, counter);
          later();
        }
        return {
          ...base,
          allowed: true,
          remaining: policy.limit,
          error: error instanceof Error ? error : new Error(String(error)),
        };
      }
      // Read now: its total answers the hits of the next LOCAL_ANSWER_MS here.
      const held = counter ?? counters.get(subject);
      if (held) {
        held.sending -= carried;
        held.known = Math.max(held.known, total);
        counters.set(subject, held);
      } else {
        counters.set(subject, { known: total, pending: 0, sending: 0 });
      }
      return {
        ...base,
        allowed: total <= policy.limit,
        remaining: Math.max(0, policy.limit - total),
      };
    },
    flush,
  };
}

/** `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers), and `Retry-After`. */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const name = sfString(result.policy.name);
  const out: Record<string, string> = {
    'RateLimit-Policy': `${name};q=${result.limit};w=${result.policy.windowSeconds}`,
    RateLimit: `${name};r=${result.remaining};t=${result.resetSeconds}`,
  };
  if (!result.allowed) out['Retry-After'] = String(result.resetSeconds);
  return out;
}

/** Maps any key to one subject token; distinct keys never share a token. */
export function keyToken(key: string): string {
  if (key.length <= MAX_KEY_LENGTH && TOKEN.test(key) && !HASHED_SUFFIX.test(key)) return key;
  const readable = key.slice(0, 40).replace(/[^A-Za-z0-9_-]/g, '_');
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
  return `${readable}-h${digest}`;
}

async function increment(
  nc: NatsConnection,
  subject: string,
  timeout: number,
  hits: number,
): Promise<number> {
  const h = headers();
  h.set('Nats-Incr', `+${hits}`);
  const reply = await nc.request(subject, undefined, { headers: h, timeout });
  const ack = reply.json<{ val?: unknown; error?: { description?: unknown } }>();
  if (ack.error) {
    throw new Error(`rate limit counter ${subject}: ${String(ack.error.description)}`);
  }
  const total = typeof ack.val === 'string' ? Number(ack.val) : Number.NaN;
  if (!Number.isSafeInteger(total)) {
    throw new Error(`rate limit counter ${subject}: unexpected reply`);
  }
  return total;
}

function assertPolicy(policy: RateLimitPolicy): void {
  if (!TOKEN.test(policy.name)) {
    throw new TypeError(`rate limit policy name must match ${String(TOKEN)}: ${policy.name}`);
  }
  if (!Number.isSafeInteger(policy.limit) || policy.limit < 0) {
    throw new RangeError(`rate limit policy ${policy.name}: limit must be a whole number >= 0`);
  }
  const { windowSeconds } = policy;
  if (
    !Number.isSafeInteger(windowSeconds) ||
    windowSeconds < 1 ||
    windowSeconds > MAX_WINDOW_SECONDS
  ) {
    throw new RangeError(
      `rate limit policy ${policy.name}: windowSeconds must be a whole number from 1 to ${MAX_WINDOW_SECONDS}`,
    );
  }
}

function sfString(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
