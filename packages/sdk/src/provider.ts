import { createApi, type Api, type ClientOptions } from './client.ts';

export interface ProviderClientOptions extends ClientOptions {
  /** The provider key, `hpk_live_...`. */
  apiKey: string;
}

export interface StaffClientOptions extends ClientOptions {
  /** A staff JWT (`roles` containing `staff`). */
  token: string;
}

/**
 * The provider API (`/v1/provider/*`) with a provider key: the typed generated client, with the
 * same retries and idempotency keys as the agent client. Use it with `unwrap` and `paginate`:
 * `await unwrap(provider.POST('/v1/provider/requests/{id}/messages', {...}))`.
 */
export function createProviderClient(options: ProviderClientOptions): Api {
  return createApi(options, `Bearer ${options.apiKey}`);
}

/** The staff API (`/v1/staff/*`) with a staff JWT; see `createProviderClient`. */
export function createStaffClient(options: StaffClientOptions): Api {
  return createApi(options, `Bearer ${options.token}`);
}
