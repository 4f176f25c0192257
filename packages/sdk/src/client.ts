import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/schema.ts';
import { DEFAULT_RETRY, retryingFetch, type Fetch, type RetryOptions } from './transport.ts';

export interface ClientOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:8080` (without `/v1`). */
  baseUrl: string;
  /** Retries of connection errors, 429 and 5xx; `{ maxRetries: 0 }` turns them off. */
  retry?: Partial<RetryOptions>;
  /** Another fetch (a proxy agent, instrumentation); the global one by default. */
  fetch?: Fetch;
  /** Sent as `User-Agent` after the SDK's own name. */
  userAgent?: string;
}

export type Api = Client<paths>;

/**
 * How a client proves who calls: an `Authorization` header (a key or token), or the workspace's
 * session cookie, which the browser sends on same-origin calls, with the session's CSRF token on
 * every change.
 */
export type Credentials = { authorization: string } | { csrfToken: string };

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * What a client sends with: the typed API, a fetch that sends a call once (its body may be a
 * stream, which cannot be sent twice) and a fetch without credentials for signed download URLs.
 */
export interface Transport {
  api: Api;
  /** The API's fetch without retries: for a call whose body is a one-shot stream. */
  sendOnce: Fetch;
  /** Retries, no credentials: a download URL is its own capability, the key stays home. */
  plain: Fetch;
}

/** The typed openapi-fetch client every side of the API shares, with auth and retries. */
export function createApi(options: ClientOptions, credentials: Credentials | string): Api {
  return createTransport(options, credentials).api;
}

export function createTransport(
  options: ClientOptions,
  credentials: Credentials | string,
): Transport {
  const given = typeof credentials === 'string' ? { authorization: credentials } : credentials;
  const base: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const inner: Fetch =
    'csrfToken' in given
      ? (request) => {
          if (SAFE_METHODS.has(request.method)) return base(request);
          const headers = new Headers(request.headers);
          headers.set('X-CSRF-Token', given.csrfToken);
          return base(new Request(request, { headers }));
        }
      : base;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(retry, inner),
    // A session's cookie goes only to the gateway the page came from.
    ...('csrfToken' in given ? { credentials: 'same-origin' as const } : {}),
    headers: {
      ...('authorization' in given ? { Authorization: given.authorization } : {}),
      Accept: 'application/json',
      'User-Agent': ['handoff-sdk-typescript/0.1.0', options.userAgent].filter(Boolean).join(' '),
    },
  });
  return {
    api,
    // No retry: the one attempt sends the request itself, never a copy of its stream.
    sendOnce: retryingFetch({ ...retry, maxRetries: 0 }, inner),
    plain: retryingFetch(retry, base),
  };
}
