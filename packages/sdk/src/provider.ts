import { createApi, type ClientOptions } from './client.ts';
import { unwrap } from './errors.ts';
import { paginate } from './paginate.ts';
import type { BodyOf, ListFilters, QueryOf } from './types.ts';

export interface ProviderClientOptions extends ClientOptions {
  /** The provider key, `hpk_live_...`. */
  apiKey: string;
}

export interface StaffClientOptions extends ClientOptions {
  /** A staff JWT (`roles` containing `staff`). */
  token: string;
}

/** Per list call: a signal that stops the paging. */
export interface ListOption {
  signal?: AbortSignal;
}

const signal = (opts: ListOption | undefined) => (opts?.signal ? { signal: opts.signal } : {});
const onId = (id: string) => ({ params: { path: { id } } });

/**
 * The provider API (`/v1/provider/*`) with a provider key (`hpk_live_`): the same retries,
 * idempotency keys, paging and `HandoffError` as the agent client. Every list is an async
 * iterator over all its pages: `for await (const job of provider.jobs.list({ status: 'active' }))`.
 */
export function createProviderClient(options: ProviderClientOptions) {
  const api = createApi(options, `Bearer ${options.apiKey}`);

  const requests = {
    /** The requests routed to this provider, newest first. */
    list: (filters: ListFilters<'/v1/provider/requests'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/provider/requests', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/provider/requests/{id}', onId(id))),
    /** Writes into the request's conversation with the customer's agent. */
    sendMessage: (id: string, body: BodyOf<'/v1/provider/requests/{id}/messages', 'post'>) =>
      unwrap(api.POST('/v1/provider/requests/{id}/messages', { ...onId(id), body })),
    /** Proposes to do the request (amount, days, milestones); the agent accepts or declines. */
    propose: (id: string, body: BodyOf<'/v1/provider/requests/{id}/proposals', 'post'>) =>
      unwrap(api.POST('/v1/provider/requests/{id}/proposals', { ...onId(id), body })),
  };

  const proposals = {
    list: (filters: ListFilters<'/v1/provider/proposals'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/provider/proposals', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/provider/proposals/{id}', onId(id))),
    withdraw: (id: string) => unwrap(api.POST('/v1/provider/proposals/{id}/withdraw', onId(id))),
  };

  const jobs = {
    list: (filters: ListFilters<'/v1/provider/jobs'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/provider/jobs', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/provider/jobs/{id}', onId(id))),
    complete: (id: string) => unwrap(api.POST('/v1/provider/jobs/{id}/complete', onId(id))),
    addMilestone: (id: string, body: BodyOf<'/v1/provider/jobs/{id}/milestones', 'post'>) =>
      unwrap(api.POST('/v1/provider/jobs/{id}/milestones', { ...onId(id), body })),
  };

  const milestones = {
    list: (filters: ListFilters<'/v1/provider/milestones'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/provider/milestones', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/provider/milestones/{id}', onId(id))),
    addDeliverable: (
      id: string,
      body: BodyOf<'/v1/provider/milestones/{id}/deliverables', 'post'>,
    ) => unwrap(api.POST('/v1/provider/milestones/{id}/deliverables', { ...onId(id), body })),
    reportProgress: (id: string, body: BodyOf<'/v1/provider/milestones/{id}/progress', 'post'>) =>
      unwrap(api.POST('/v1/provider/milestones/{id}/progress', { ...onId(id), body })),
    /** Submits the milestone for the customer's approval. */
    submit: (id: string, body: BodyOf<'/v1/provider/milestones/{id}/submit', 'post'> = {}) =>
      unwrap(api.POST('/v1/provider/milestones/{id}/submit', { ...onId(id), body })),
  };

  const deliverables = {
    list: (filters: ListFilters<'/v1/provider/deliverables'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/provider/deliverables', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/provider/deliverables/{id}', onId(id))),
    withdraw: (id: string) => unwrap(api.POST('/v1/provider/deliverables/{id}/withdraw', onId(id))),
  };

  const disputes = {
    list: (filters: ListFilters<'/v1/provider/disputes'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/provider/disputes', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/provider/disputes/{id}', onId(id))),
    comment: (id: string, body: BodyOf<'/v1/provider/disputes/{id}/comments', 'post'>) =>
      unwrap(api.POST('/v1/provider/disputes/{id}/comments', { ...onId(id), body })),
  };

  return {
    /** The generated client itself, for any operation (`api.GET('/v1/...', ...)`) with `unwrap`. */
    api,
    me: () => unwrap(api.GET('/v1/provider/me')),
    requests,
    proposals,
    jobs,
    milestones,
    deliverables,
    disputes,
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;

/**
 * The staff API (`/v1/staff/*`) with a staff JWT: the same shape as the provider client, one
 * resource per staff collection, every list an async iterator over all its pages.
 */
export function createStaffClient(options: StaffClientOptions) {
  const api = createApi(options, `Bearer ${options.token}`);

  const requests = {
    list: (filters: ListFilters<'/v1/staff/requests'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/requests', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/staff/requests/{id}', onId(id))),
    /** Changes the request: its status, its routing (`{ mode: 'direct', provider_ids }`), ... */
    update: (id: string, body: BodyOf<'/v1/staff/requests/{id}', 'patch'>) =>
      unwrap(api.PATCH('/v1/staff/requests/{id}', { ...onId(id), body })),
    marketplaceReview: (
      id: string,
      body: BodyOf<'/v1/staff/requests/{id}/marketplace-review', 'post'>,
    ) => unwrap(api.POST('/v1/staff/requests/{id}/marketplace-review', { ...onId(id), body })),
    /** Everything of one request, oldest first (the newest 100 of each kind). */
    timeline: (id: string) => unwrap(api.GET('/v1/staff/requests/{id}/timeline', onId(id))),
  };

  const providers = {
    create: (body: BodyOf<'/v1/staff/providers', 'post'>) =>
      unwrap(api.POST('/v1/staff/providers', { body })),
    list: (filters: ListFilters<'/v1/staff/providers'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/providers', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/staff/providers/{id}', onId(id))),
    update: (id: string, body: BodyOf<'/v1/staff/providers/{id}', 'patch'>) =>
      unwrap(api.PATCH('/v1/staff/providers/{id}', { ...onId(id), body })),
    /** Issues a provider key; its `api_key` (`hpk_live_`) is shown only in this answer. */
    createKey: (id: string, body: BodyOf<'/v1/staff/providers/{id}/keys', 'post'> = {}) =>
      unwrap(api.POST('/v1/staff/providers/{id}/keys', { ...onId(id), body })),
    revokeKey: (keyId: string) =>
      unwrap(
        api.POST('/v1/staff/provider-keys/{key_id}/revoke', {
          params: { path: { key_id: keyId } },
        }),
      ),
  };

  const paymentRequests = {
    list: (filters: ListFilters<'/v1/staff/payment-requests'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/payment-requests', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    approve: (id: string) => unwrap(api.POST('/v1/staff/payment-requests/{id}/approve', onId(id))),
    reject: (id: string, body: BodyOf<'/v1/staff/payment-requests/{id}/reject', 'post'>) =>
      unwrap(api.POST('/v1/staff/payment-requests/{id}/reject', { ...onId(id), body })),
  };

  const payments = {
    list: (filters: ListFilters<'/v1/staff/payments'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/payments', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/staff/payments/{id}', onId(id))),
    confirm: (id: string, body: BodyOf<'/v1/staff/payments/{id}/confirm', 'post'> = {}) =>
      unwrap(api.POST('/v1/staff/payments/{id}/confirm', { ...onId(id), body })),
    fail: (id: string, body: BodyOf<'/v1/staff/payments/{id}/fail', 'post'>) =>
      unwrap(api.POST('/v1/staff/payments/{id}/fail', { ...onId(id), body })),
  };

  const disputes = {
    list: (filters: ListFilters<'/v1/staff/disputes'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/disputes', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/staff/disputes/{id}', onId(id))),
    comment: (id: string, body: BodyOf<'/v1/staff/disputes/{id}/comments', 'post'>) =>
      unwrap(api.POST('/v1/staff/disputes/{id}/comments', { ...onId(id), body })),
    escalate: (id: string) => unwrap(api.POST('/v1/staff/disputes/{id}/escalate', onId(id))),
    resolve: (id: string, body: BodyOf<'/v1/staff/disputes/{id}/resolve', 'post'>) =>
      unwrap(api.POST('/v1/staff/disputes/{id}/resolve', { ...onId(id), body })),
  };

  const jobs = {
    cancel: (id: string, body: BodyOf<'/v1/staff/jobs/{id}/cancel', 'post'>) =>
      unwrap(api.POST('/v1/staff/jobs/{id}/cancel', { ...onId(id), body })),
  };

  const milestones = {
    cancel: (id: string, body: BodyOf<'/v1/staff/milestones/{id}/cancel', 'post'>) =>
      unwrap(api.POST('/v1/staff/milestones/{id}/cancel', { ...onId(id), body })),
  };

  const accessApplications = {
    list: (filters: ListFilters<'/v1/staff/access-applications'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/access-applications', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/staff/access-applications/{id}', onId(id))),
    /** Approves the application with the scopes its integration's keys get. */
    approve: (id: string, body: BodyOf<'/v1/staff/access-applications/{id}/approve', 'post'>) =>
      unwrap(api.POST('/v1/staff/access-applications/{id}/approve', { ...onId(id), body })),
    reject: (id: string, body: BodyOf<'/v1/staff/access-applications/{id}/reject', 'post'>) =>
      unwrap(api.POST('/v1/staff/access-applications/{id}/reject', { ...onId(id), body })),
  };

  const integrations = {
    list: (filters: ListFilters<'/v1/staff/integrations'> = {}, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/integrations', {
            params: { query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/staff/integrations/{id}', onId(id))),
    update: (id: string, body: BodyOf<'/v1/staff/integrations/{id}', 'patch'>) =>
      unwrap(api.PATCH('/v1/staff/integrations/{id}', { ...onId(id), body })),
    /** Issues an agent key of the integration; its `api_key` is shown only in this answer. */
    createKey: (id: string, body: BodyOf<'/v1/staff/integrations/{id}/keys', 'post'>) =>
      unwrap(api.POST('/v1/staff/integrations/{id}/keys', { ...onId(id), body })),
    revokeKey: (keyId: string) =>
      unwrap(api.POST('/v1/staff/keys/{key_id}/revoke', { params: { path: { key_id: keyId } } })),
    redeliverEvent: (id: string, eventId: string) =>
      unwrap(
        api.POST('/v1/staff/integrations/{id}/events/{event_id}/redeliver', {
          params: { path: { id, event_id: eventId } },
        }),
      ),
    webhookEndpoints: (id: string, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/integrations/{id}/webhook-endpoints', {
            params: { path: { id }, query: cursor },
            ...signal(opts),
          }),
        ),
      ),
    /** The delivery attempts to one of the integration's endpoints, newest first. */
    webhookAttempts: (id: string, endpointId: string, opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/staff/integrations/{id}/webhook-endpoints/{endpoint_id}/attempts', {
            params: { path: { id, endpoint_id: endpointId }, query: cursor },
            ...signal(opts),
          }),
        ),
      ),
    rotateWebhookSecret: (
      id: string,
      endpointId: string,
      body: BodyOf<
        '/v1/staff/integrations/{id}/webhook-endpoints/{endpoint_id}/rotate-secret',
        'post'
      > = {},
    ) =>
      unwrap(
        api.POST('/v1/staff/integrations/{id}/webhook-endpoints/{endpoint_id}/rotate-secret', {
          params: { path: { id, endpoint_id: endpointId } },
          body,
        }),
      ),
  };

  return {
    /** The generated client itself, for any operation (`api.GET('/v1/...', ...)`) with `unwrap`. */
    api,
    /** Every backend service as this gateway sees it, and the long-polls it holds. */
    health: () => unwrap(api.GET('/v1/staff/health')),
    /** Everything waiting on a deadline, soonest first (`{ overdue: 'true' }`, `{ before }`). */
    deadlines: (query: QueryOf<'/v1/staff/deadlines', 'get'> = {}) =>
      unwrap(api.GET('/v1/staff/deadlines', { params: { query } })),
    /** Every staff action, newest first. */
    auditLog: (opts?: ListOption) =>
      paginate((cursor) =>
        unwrap(api.GET('/v1/staff/audit-log', { params: { query: cursor }, ...signal(opts) })),
      ),
    requests,
    providers,
    paymentRequests,
    payments,
    disputes,
    jobs,
    milestones,
    accessApplications,
    integrations,
  };
}

export type StaffClient = ReturnType<typeof createStaffClient>;
