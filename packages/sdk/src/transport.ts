import { HandoffConnectionError, isProblem, parseRetryAfter } from './errors.ts';

export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  maxRetries: number;
  /** The first backoff's ceiling; each retry doubles it (default 250 ms). */
  baseDelayMs: number;
  /** No backoff, and no honoured `Retry-After`, waits longer than this (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };

export type Fetch = (request: Request) => Promise<Response>;

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Full jitter, so that many clients failing together do not retry together. */
const backoff = (attempt: number, options: RetryOptions) =>
  Math.random() * Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);

/**
 * A 409 `idempotency_key_in_use` means an earlier attempt of this very call is still running
 * (its answer was lost on the way back); waiting and retrying with the same key gets its result.
 */
const isKeyInUse = (response: Response) => isProblem(response, 409, 'idempotency_key_in_use');

/**
 * A fetch that gives every POST an `Idempotency-Key` (kept across its retries, so a retry of a
 * call that was answered is a replay, not a second run) and retries connection errors, 429
 * (after `Retry-After`), 5xx and a busy idempotency key with exponential backoff. The gateway
 * does not keep 5xx answers: a retry after a 503 timeout runs the call again, and may repeat a
 * change the first attempt made after all (see the README's Idempotency-Key notes).
 */
export function retryingFetch(options: RetryOptions, inner: Fetch): Fetch {
  return async (original) => {
    let request = original;
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('Idempotency-Key', crypto.randomUUID());
      request = new Request(request, { headers });
    }
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetries;
      let response: Response;
      try {
        // A body can be read once; each attempt sends a copy.
        response = await inner(last ? request : request.clone());
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (last) {
          throw new HandoffConnectionError(
            `${request.method} ${new URL(request.url).pathname}: ${String(error)}`,
            { cause: error },
          );
        }
        await sleep(backoff(attempt, options), request.signal);
        continue;
      }
      const retryable =
        response.status === 429 || response.status >= 500 || (await isKeyInUse(response));
      if (!retryable || last) return response;
      const asked = parseRetryAfter(response.headers.get('retry-after'));
      const wait =
        asked === undefined
          ? backoff(attempt, options)
          : Math.min(asked * 1000, options.maxDelayMs);
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
