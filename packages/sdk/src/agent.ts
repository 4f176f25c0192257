import { createApi, type ClientOptions } from './client.ts';
import { unwrap } from './errors.ts';
import { paginate } from './paginate.ts';
import type { BodyOf, Event, ListFilters, RequestCreate } from './types.ts';

export interface AgentClientOptions extends ClientOptions {
  /** The agent key, `hk_live_...`. */
  apiKey: string;
}

/** Per call: the request token, when the client was not told it (`create`, `useToken`). */
export interface TokenOption {
  token?: string;
  signal?: AbortSignal;
}

/**
 * The agent API (`hk_live_` key). Request tokens are remembered per request id: `create`
 * keeps the one it got, `useToken` adds one from elsewhere (a database, a previous process),
 * and any call takes `{ token }` to override it.
 */
export function createHandoffClient(options: AgentClientOptions) {
  const api = createApi(options, `Bearer ${options.apiKey}`);
  const tokens = new Map<string, string>();

  const tokenFor = (id: string, given?: string): string => {
    const token = given ?? tokens.get(id);
    if (token === undefined) {
      throw new Error(
        `No request token for ${id}: pass { token } or call requests.useToken(id, token) first.`,
      );
    }
    return token;
  };
  /** The path and token headers of the calls under `/v1/request/{id}`. */
  const on = (id: string, opts: TokenOption | undefined) => ({
    path: { id },
    header: { 'X-Service-Request-Token': tokenFor(id, opts?.token) },
  });
  const signal = (opts: TokenOption | undefined) => (opts?.signal ? { signal: opts.signal } : {});

  const proposals = {
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/proposals'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/proposals', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string, proposalId: string, opts?: TokenOption) =>
      unwrap(
        api.GET('/v1/request/{id}/proposals/{proposal_id}', {
          params: { ...on(id, opts), path: { id, proposal_id: proposalId } },
          ...signal(opts),
        }),
      ),
    /** Accepts one proposal: its job starts, the other open proposals are declined. */
    accept: (id: string, proposalId: string, opts?: TokenOption) =>
      unwrap(
        api.POST('/v1/request/{id}/proposals/{proposal_id}/accept', {
          params: { ...on(id, opts), path: { id, proposal_id: proposalId } },
          ...signal(opts),
        }),
      ),
    decline: (
      id: string,
      proposalId: string,
      body: BodyOf<'/v1/request/{id}/proposals/{proposal_id}/decline', 'post'> = {},
      opts?: TokenOption,
    ) =>
      unwrap(
        api.POST('/v1/request/{id}/proposals/{proposal_id}/decline', {
          params: { ...on(id, opts), path: { id, proposal_id: proposalId } },
          body,
          ...signal(opts),
        }),
      ),
  };

  const milestones = {
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/milestones'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/milestones', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string, milestoneId: string, opts?: TokenOption) =>
      unwrap(
        api.GET('/v1/request/{id}/milestones/{milestone_id}', {
          params: { ...on(id, opts), path: { id, milestone_id: milestoneId } },
          ...signal(opts),
        }),
      ),
    approve: (id: string, milestoneId: string, opts?: TokenOption) =>
      unwrap(
        api.POST('/v1/request/{id}/milestones/{milestone_id}/approve', {
          params: { ...on(id, opts), path: { id, milestone_id: milestoneId } },
          ...signal(opts),
        }),
      ),
    requestChanges: (
      id: string,
      milestoneId: string,
      body: BodyOf<'/v1/request/{id}/milestones/{milestone_id}/request-changes', 'post'>,
      opts?: TokenOption,
    ) =>
      unwrap(
        api.POST('/v1/request/{id}/milestones/{milestone_id}/request-changes', {
          params: { ...on(id, opts), path: { id, milestone_id: milestoneId } },
          body,
          ...signal(opts),
        }),
      ),
  };

  const disputes = {
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/disputes'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/disputes', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string, disputeId: string, opts?: TokenOption) =>
      unwrap(
        api.GET('/v1/request/{id}/disputes/{dispute_id}', {
          params: { ...on(id, opts), path: { id, dispute_id: disputeId } },
          ...signal(opts),
        }),
      ),
    open: (id: string, body: BodyOf<'/v1/request/{id}/disputes', 'post'>, opts?: TokenOption) =>
      unwrap(
        api.POST('/v1/request/{id}/disputes', {
          params: on(id, opts),
          body,
          ...signal(opts),
        }),
      ),
    comment: (
      id: string,
      disputeId: string,
      body: BodyOf<'/v1/request/{id}/disputes/{dispute_id}/comments', 'post'>,
      opts?: TokenOption,
    ) =>
      unwrap(
        api.POST('/v1/request/{id}/disputes/{dispute_id}/comments', {
          params: { ...on(id, opts), path: { id, dispute_id: disputeId } },
          body,
          ...signal(opts),
        }),
      ),
    withdraw: (id: string, disputeId: string, opts?: TokenOption) =>
      unwrap(
        api.POST('/v1/request/{id}/disputes/{dispute_id}/withdraw', {
          params: { ...on(id, opts), path: { id, dispute_id: disputeId } },
          ...signal(opts),
        }),
      ),
  };

  const deliverables = {
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/deliverables'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/deliverables', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string, deliverableId: string, opts?: TokenOption) =>
      unwrap(
        api.GET('/v1/request/{id}/deliverables/{deliverable_id}', {
          params: { ...on(id, opts), path: { id, deliverable_id: deliverableId } },
          ...signal(opts),
        }),
      ),
  };

  const jobs = {
    list: (id: string, filters: ListFilters<'/v1/request/{id}/jobs'> = {}, opts?: TokenOption) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/jobs', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string, jobId: string, opts?: TokenOption) =>
      unwrap(
        api.GET('/v1/request/{id}/jobs/{job_id}', {
          params: { ...on(id, opts), path: { id, job_id: jobId } },
          ...signal(opts),
        }),
      ),
  };

  const messages = {
    /**
     * The whole conversation, a page at a time, newest first: the request read shows only the
     * newest 1,000 messages, this list reaches every one.
     */
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/messages'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/messages', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
  };

  const paymentRequests = {
    /**
     * Every payment request of the request, newest first, whatever its status (pending,
     * approved, rejected with its reason, expired); the request read shows approved ones only.
     */
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/payment-requests'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/payment-requests', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
    get: (id: string, paymentRequestId: string, opts?: TokenOption) =>
      unwrap(
        api.GET('/v1/request/{id}/payment-requests/{payment_request_id}', {
          params: { ...on(id, opts), path: { id, payment_request_id: paymentRequestId } },
          ...signal(opts),
        }),
      ),
  };

  const payments = {
    /** The payments of the request (one per approved payment request) with their outcome. */
    list: (
      id: string,
      filters: ListFilters<'/v1/request/{id}/payments'> = {},
      opts?: TokenOption,
    ) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/request/{id}/payments', {
            params: { ...on(id, opts), query: { ...filters, ...cursor } },
            ...signal(opts),
          }),
        ),
      ),
  };

  const requests = {
    /** Hands a customer's request over; the token in the answer is remembered for this id. */
    create: async (body: RequestCreate, opts?: { signal?: AbortSignal }) => {
      const created = await unwrap(api.POST('/v1/ai-to-human-request', { body, ...signal(opts) }));
      tokens.set(created.id, created.request_token);
      return created;
    },
    /** Remembers the request token of a request created elsewhere. */
    useToken: (id: string, token: string) => {
      tokens.set(id, token);
    },
    /** The request with its conversation and approved payment requests. */
    get: (id: string, opts?: TokenOption) =>
      unwrap(api.GET('/v1/request/{id}', { params: on(id, opts), ...signal(opts) })),
    sendMessage: (
      id: string,
      body: BodyOf<'/v1/request/{id}/message', 'post'>,
      opts?: TokenOption,
    ) =>
      unwrap(api.POST('/v1/request/{id}/message', { params: on(id, opts), body, ...signal(opts) })),
    /** Proposes a payment request; staff approve it before it shows in reads. */
    proposePayment: (
      id: string,
      body: BodyOf<'/v1/request/{id}/payment-request', 'post'>,
      opts?: TokenOption,
    ) =>
      unwrap(
        api.POST('/v1/request/{id}/payment-request', {
          params: on(id, opts),
          body,
          ...signal(opts),
        }),
      ),
    /**
     * One long-poll (`GET /v1/request/{id}/events`): the events after `after`, in sequence
     * order, answered at once when there are some, else after up to `wait` seconds (≤ 25).
     */
    waitForUpdates: (
      id: string,
      query: { after?: number; wait?: number; limit?: number } = {},
      opts?: TokenOption,
    ) =>
      unwrap(
        api.GET('/v1/request/{id}/events', {
          params: { ...on(id, opts), query },
          ...signal(opts),
        }),
      ),
    /**
     * Every event of the request from `after` on, as it happens: `for await (const event of
     * client.requests.updates(id))`. It long-polls without end; `break` (or the signal) stops it.
     */
    updates: async function* (
      id: string,
      opts: TokenOption & { after?: number; wait?: number } = {},
    ): AsyncGenerator<Event, void, undefined> {
      let after = opts.after ?? 0;
      while (!opts.signal?.aborted) {
        let page: { data: Event[] };
        try {
          page = await requests.waitForUpdates(id, { after, wait: opts.wait ?? 25 }, opts);
        } catch (error) {
          if (opts.signal?.aborted) return;
          throw error;
        }
        for (const event of page.data) {
          after = Math.max(after, event.data.sequence);
          yield event;
        }
      }
    },
    messages,
    paymentRequests,
    payments,
    proposals,
    milestones,
    disputes,
    deliverables,
    jobs,
  };

  const events = {
    list: (filters: ListFilters<'/v1/events'> = {}, opts?: { signal?: AbortSignal }) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/events', { params: { query: { ...filters, ...cursor } }, ...signal(opts) }),
        ),
      ),
    get: (id: string) => unwrap(api.GET('/v1/events/{id}', { params: { path: { id } } })),
    redeliver: (id: string) =>
      unwrap(api.POST('/v1/events/{id}/redeliver', { params: { path: { id } } })),
  };

  const webhookEndpoints = {
    create: (body: BodyOf<'/v1/webhook-endpoints', 'post'>) =>
      unwrap(api.POST('/v1/webhook-endpoints', { body })),
    list: () =>
      paginate((cursor) => unwrap(api.GET('/v1/webhook-endpoints', { params: { query: cursor } }))),
    get: (id: string) =>
      unwrap(api.GET('/v1/webhook-endpoints/{id}', { params: { path: { id } } })),
    update: (id: string, body: BodyOf<'/v1/webhook-endpoints/{id}', 'patch'>) =>
      unwrap(api.PATCH('/v1/webhook-endpoints/{id}', { params: { path: { id } }, body })),
    delete: (id: string) =>
      unwrap(api.DELETE('/v1/webhook-endpoints/{id}', { params: { path: { id } } })),
    /** The delivery attempts to the endpoint, newest first, with status code and duration. */
    attempts: (id: string, opts?: { signal?: AbortSignal }) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/webhook-endpoints/{id}/attempts', {
            params: { path: { id }, query: cursor },
            ...signal(opts),
          }),
        ),
      ),
    rotateSecret: (
      id: string,
      body: BodyOf<'/v1/webhook-endpoints/{id}/rotate-secret', 'post'> = {},
    ) =>
      unwrap(
        api.POST('/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id } }, body }),
      ),
  };

  return {
    /** The generated client itself, for any operation (`api.GET('/v1/...', ...)`) with `unwrap`. */
    api,
    capabilities: () => unwrap(api.GET('/v1/capabilities')),
    services: () => unwrap(api.GET('/v1/services')),
    me: () => unwrap(api.GET('/v1/me')),
    requests,
    events,
    webhookEndpoints,
  };
}

export type HandoffClient = ReturnType<typeof createHandoffClient>;
