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

/** The typed openapi-fetch client every side of the API shares, with auth and retries. */
export function createApi(options: ClientOptions, authorization: string): Api {
  const inner: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch({ ...DEFAULT_RETRY, ...options.retry }, inner),
    headers: {
      Authorization: authorization,
      Accept: 'application/json',
      'User-Agent': ['handoff-sdk-typescript/0.1.0', options.userAgent].filter(Boolean).join(' '),
    },
  });
}
