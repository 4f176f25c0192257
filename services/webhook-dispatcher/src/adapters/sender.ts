// One delivery attempt: a signed POST of the event body to the endpoint, bounded in time and in
// how much of the answer is read, never following redirects, and connecting only to addresses
// that the target policy allows (checked on every new connection, see ssrf.ts).
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { deliveryHeaders } from '../domain/signer.ts';
import { checkTargetUrl, guardedLookup, TARGET_REFUSED } from './ssrf.ts';
import type { Resolver } from './ssrf.ts';
import type { TargetPolicy } from '../domain/target-policy.ts';

/**
 * - `success`: the receiver answered 2xx.
 * - `gone`: it answered 410; the caller disables the endpoint and stops retrying.
 * - `retry`: any other answer (3xx included: redirects are never followed), a network error or
 *   a timeout; the caller retries on schedule.
 * - `refused`: the target policy refused the URL or an address it resolved to, and nothing was
 *   sent. The caller counts it as a failed attempt and retries on the same schedule (a DNS
 *   answer can change, and a URL that is refused at every try runs out of retries and, after
 *   the disable window, disables the endpoint), so a refused target is never hammered.
 */
export type SendOutcome = 'success' | 'retry' | 'gone' | 'refused';

export interface SendResult {
  outcome: SendOutcome;
  /** Null when no answer arrived. */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt did not get an answer, or a note on the answer; null for a plain answer. */
  error: string | null;
  /** At most `responseBodyLimit` bytes of the answer as UTF-8; null when no answer arrived. */
  responseBody: string | null;
  /** From `Retry-After` (delta-seconds or HTTP-date) on any answer; null when absent or bad. */
  retryAfterSeconds: number | null;
}

export interface SendTarget {
  url: string;
  /** The live secrets, each `whsec_` + base64; every one of them signs (rotation grace). */
  secrets: readonly string[];
  /** Headers the receiver asked for besides the signature's (an A2A client's token). */
  headers?: Record<string, string>;
}

export interface SendEvent {
  /** The event id, sent as `webhook-id`, the same on every attempt. */
  id: string;
  /** The exact bytes to send and sign (the serialized envelope). */
  body: string;
}

export interface SendOptions {
  /** Deadline of the whole attempt: connect, send, and the answer's status line and headers. */
  timeoutMs: number;
  policy: TargetPolicy;
  /** Clock for `webhook-timestamp` and HTTP-date `Retry-After`; `Date.now` by default. */
  now?: () => number;
  /** The resolver under the address guard (`dns.lookup` by default); the guard always applies. */
  lookup?: Resolver;
  /** How many bytes of the answer to keep; the connection is dropped when more arrive. */
  responseBodyLimit: number;
  /** Connection pools; a process-wide pool by default. */
  agents?: AgentPool;
  /** Aborts the attempt (for shutdown); it then ends as `retry` with error 'aborted'. */
  signal?: AbortSignal;
}

// ---------------------------------------------------------------------------------------------
// Connection pools

export interface AgentPoolOptions {
  /** Origins with a pool at once; the least recently used pool is dropped beyond this. */
  maxOrigins?: number;
  /**
   * How long an idle keep-alive connection is kept. Below the 5 s keep-alive timeout of Node
   * servers (the shortest common default) so that a reused connection is rarely one the
   * receiver is closing at that moment.
   */
  idleSocketMs?: number;
  /** Idle connections kept per origin. */
  maxFreeSockets?: number;
}

/**
 * Keep-alive agents, one per origin (and per policy and resolver), each with the guarded
 * lookup, so every new connection is checked and a reused one is one that was checked when it
 * was opened. The sender never uses the global agents, so the process's proxy settings cannot
 * route deliveries through a proxy (which would make the guard check the proxy's address).
 */
export class AgentPool {
  readonly #agents = new Map<string, http.Agent>();
  readonly #resolverIds = new WeakMap<Resolver, number>();
  #nextResolverId = 1;
  readonly #maxOrigins: number;
  readonly #idleSocketMs: number;
  readonly #maxFreeSockets: number;

  constructor(options: AgentPoolOptions = {}) {
    this.#maxOrigins = options.maxOrigins ?? 1_000;
    this.#idleSocketMs = options.idleSocketMs ?? 4_000;
    this.#maxFreeSockets = options.maxFreeSockets ?? 16;
  }

  agentFor(url: URL, policy: TargetPolicy, resolver?: Resolver): http.Agent {
    let resolverId = 0;
    if (resolver !== undefined) {
      resolverId = this.#resolverIds.get(resolver) ?? this.#nextResolverId++;
      this.#resolverIds.set(resolver, resolverId);
    }
    const key = `${resolverId}|${policy.allowPrivate ? 'private' : 'public'}|${url.origin}`;
    const existing = this.#agents.get(key);
    if (existing !== undefined) {
      this.#agents.delete(key);
      this.#agents.set(key, existing);
      return existing;
    }
    const options: https.AgentOptions = {
      keepAlive: true,
      maxFreeSockets: this.#maxFreeSockets,
      timeout: this.#idleSocketMs,
      scheduling: 'lifo',
      lookup: guardedLookup(policy, resolver),
    };
    const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    this.#agents.set(key, agent);
    // An evicted agent is only forgotten: its requests in flight finish, and its idle
    // connections close after `idleSocketMs` (they are unref'd, so they never hold the process).
    for (const oldest of this.#agents.keys()) {
      if (this.#agents.size <= this.#maxOrigins) break;
      this.#agents.delete(oldest);
    }
    return agent;
  }

  /** Closes every connection, in flight or idle (for shutdown and tests). */
  destroy(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

const defaultPool = new AgentPool();

// ---------------------------------------------------------------------------------------------
// Answers

const DAY_NAME = /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s/i;

/**
 * Seconds to wait from a `Retry-After` value: delta-seconds, or an HTTP-date (IMF-fixdate, and
 * the obsolete RFC 850 and asctime forms) counted from `nowMs`; a date in the past gives 0.
 * Null for anything else.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds : null;
  }
  if (!DAY_NAME.test(text)) return null;
  // asctime dates carry no zone; HTTP dates are always GMT.
  const at = Date.parse(/\b(?:GMT|UTC)$/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1_000));
}

/** 2xx is success, 410 is gone, everything else (3xx included) is retried. */
export function outcomeForStatus(statusCode: number): SendOutcome {
  if (statusCode >= 200 && statusCode < 300) return 'success';
  if (statusCode === 410) return 'gone';
  return 'retry';
}

function noteForAnswer(response: IncomingMessage): string | null {
  const status = response.statusCode ?? 0;
  if (status < 300 || status >= 400) return null;
  const location = response.headers.location;
  return location === undefined
    ? 'redirect not followed'
    : `redirect not followed (location: ${location.slice(0, 200)})`;
}

// Duck-typed rather than `instanceof Error`: errors from Node's own modules may come from
// another realm (as under a test runner's VM context).
function describe(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { message, code } = error as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
}

// ---------------------------------------------------------------------------------------------
// Sending

interface Attempt {
  url: URL;
  headers: http.OutgoingHttpHeaders;
  payload: Buffer;
  agent: http.Agent;
  options: SendOptions;
  started: number;
  now: () => number;
  /** Aborts when `timeoutMs` has passed (as opposed to the caller's signal). */
  deadline: AbortSignal;
}

type AttemptEnd = SendResult | 'stale-connection';

/**
 * Delivers one event to one endpoint, once. `webhook-id` is the event id on every attempt, the
 * timestamp is taken afresh for each, and the body goes out exactly as given.
 *
 * The deadline (`timeoutMs`) covers the whole attempt. When it passes before the answer's status
 * line and headers arrive, the attempt ends as `retry` with error 'timeout'. When it passes while
 * the body is still being read, the answer decides (a 2xx stays a success: the receiver has
 * accepted the event) with what was read so far and error 'timeout reading response body'.
 */
export async function sendWebhook(
  target: SendTarget,
  event: SendEvent,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const checked = checkTargetUrl(target.url, options.policy);
  if (!checked.ok) {
    return {
      outcome: 'refused',
      statusCode: null,
      durationMs: 0,
      error: checked.reason,
      responseBody: null,
      retryAfterSeconds: null,
    };
  }
  const now = options.now ?? Date.now;
  const timestamp = Math.floor(now() / 1_000);
  const payload = Buffer.from(event.body, 'utf8');
  const headers: http.OutgoingHttpHeaders = {
    ...target.headers,
    ...deliveryHeaders(target.secrets, event.id, timestamp, event.body),
    'content-length': payload.length,
  };
  const agent = (options.agents ?? defaultPool).agentFor(
    checked.url,
    options.policy,
    options.lookup,
  );
  const deadline = AbortSignal.timeout(Math.max(0, options.timeoutMs));
  const signal =
    options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  const attempt: Attempt = {
    url: checked.url,
    headers,
    payload,
    agent,
    options,
    started,
    now,
    deadline,
  };
  const first = await attemptOnce(attempt, signal, false);
  // A kept-alive connection that the receiver closed just as we reused it fails before anything
  // was answered; that is ours to retry, at once, on a new connection within the same deadline.
  if (first !== 'stale-connection') return first;
  const second = await attemptOnce(attempt, signal, true);
  if (second !== 'stale-connection') return second;
  return failed(attempt, 'retry', 'connection reset by the receiver');
}

function failed(attempt: Attempt, outcome: SendOutcome, error: string): SendResult {
  return {
    outcome,
    statusCode: null,
    durationMs: elapsed(attempt),
    error,
    responseBody: null,
    retryAfterSeconds: null,
  };
}

const elapsed = (attempt: Attempt): number =>
  Math.max(0, Math.round(performance.now() - attempt.started));

function attemptOnce(attempt: Attempt, signal: AbortSignal, retried: boolean): Promise<AttemptEnd> {
  const { url, options } = attempt;
  const abortReason = (): string => (attempt.deadline.aborted ? 'timeout' : 'aborted');
  if (signal.aborted) return Promise.resolve(failed(attempt, 'retry', abortReason()));
  return new Promise<AttemptEnd>((resolve) => {
    let settled = false;
    let response: IncomingMessage | null = null;
    const requestOptions: http.RequestOptions = {
      method: 'POST',
      headers: attempt.headers,
      agent: attempt.agent,
    };
    const request =
      url.protocol === 'https:'
        ? https.request(url, requestOptions)
        : http.request(url, requestOptions);

    const settle = (end: AttemptEnd): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve(end);
    };

    let body = '';
    let received = 0;
    const decoder = new StringDecoder('utf8');
    const answer = (note: string | null): void => {
      if (response === null) return;
      const status = response.statusCode ?? 0;
      const answerNote = noteForAnswer(response);
      settle({
        outcome: outcomeForStatus(status),
        statusCode: status,
        durationMs: elapsed(attempt),
        error: [answerNote, note].filter((part) => part !== null).join('; ') || null,
        responseBody: body,
        retryAfterSeconds: parseRetryAfter(response.headers['retry-after'], attempt.now()),
      });
    };

    function onAbort(): void {
      const reason = abortReason();
      if (response === null) settle(failed(attempt, 'retry', reason));
      else answer(reason === 'timeout' ? 'timeout reading response body' : 'aborted');
      request.destroy();
    }
    signal.addEventListener('abort', onAbort, { once: true });

    request.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      if (response !== null) {
        answer('response interrupted');
        return;
      }
      if (error.code === TARGET_REFUSED) {
        settle(failed(attempt, 'refused', error.message));
        return;
      }
      if (!retried && request.reusedSocket && error.code === 'ECONNRESET') {
        settle('stale-connection');
        return;
      }
      settle(failed(attempt, 'retry', describe(error)));
    });

    request.on('response', (res) => {
      response = res;
      const limit = Math.max(0, options.responseBodyLimit);
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = limit - received;
        if (chunk.length > room) {
          body += decoder.write(chunk.subarray(0, room));
          received = limit;
          answer(null);
          // Drop the connection instead of draining an answer of unknown size.
          res.destroy();
          return;
        }
        body += decoder.write(chunk);
        received += chunk.length;
      });
      res.on('end', () => answer(null));
      res.on('error', () => answer('response interrupted'));
      res.on('close', () => answer(res.complete ? null : 'response interrupted'));
    });

    request.end(attempt.payload);
  });
}
