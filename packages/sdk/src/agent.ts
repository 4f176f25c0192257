import { createTransport, type ClientOptions } from './client.ts';
import { unwrap } from './errors.ts';
import { agentFiles } from './agent-files.ts';
import { operations } from './operations.ts';
import { testHelpers } from './test-helpers.ts';
import type { Event, RequestCreate } from './types.ts';

export interface AgentClientOptions extends ClientOptions {
  /**
   * The agent key: `hk_live_...`, or a test key `hk_test_...` (test mode: test data only,
   * answered by the simulated provider; `testHelpers` works with it only).
   */
  apiKey: string;
}

/** Per call: the request token, when the client was not told it (`create`, `useToken`). */
export interface TokenOption {
  token?: string;
  signal?: AbortSignal;
}

/** The request tokens a client remembers, by request id, and the header that sends one. */
function requestTokens() {
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
  const tokenHeader = (id: string, opts: TokenOption | undefined) => ({
    'X-Service-Request-Token': tokenFor(id, opts?.token),
  });
  return { tokens, tokenHeader };
}

/**
 * The agent API (`hk_live_` key). Request tokens are remembered per request id: `create`
 * keeps the one it got, `useToken` adds one from elsewhere (a database, a previous process),
 * and any call takes `{ token }` to override it.
 */
export function createHandoffClient(options: AgentClientOptions) {
  const transport = createTransport(options, `Bearer ${options.apiKey}`);
  const { api } = transport;
  const { tokens, tokenHeader } = requestTokens();
  const signal = (opts: TokenOption | undefined) => (opts?.signal ? { signal: opts.signal } : {});
  const calls = operations(api);
  /** The calls under `/v1/request/{id}`: each sends the request's token and takes `TokenOption`. */
  const onRequest = operations<TokenOption>(api, tokenHeader);

  const proposals = {
    ...onRequest.collection('/v1/request/{id}/proposals/{proposal_id}'),
    /** Accepts one proposal: its job starts, the other open proposals are declined. */
    accept: onRequest.post('/v1/request/{id}/proposals/{proposal_id}/accept'),
    decline: onRequest.send('/v1/request/{id}/proposals/{proposal_id}/decline', {}),
  };

  const milestones = {
    ...onRequest.collection('/v1/request/{id}/milestones/{milestone_id}'),
    approve: onRequest.post('/v1/request/{id}/milestones/{milestone_id}/approve'),
    requestChanges: onRequest.send('/v1/request/{id}/milestones/{milestone_id}/request-changes'),
  };

  const disputes = {
    ...onRequest.collection('/v1/request/{id}/disputes/{dispute_id}'),
    open: onRequest.send('/v1/request/{id}/disputes'),
    comment: onRequest.send('/v1/request/{id}/disputes/{dispute_id}/comments'),
    withdraw: onRequest.post('/v1/request/{id}/disputes/{dispute_id}/withdraw'),
  };

  const deliverables = onRequest.collection('/v1/request/{id}/deliverables/{deliverable_id}');
  const jobs = onRequest.collection('/v1/request/{id}/jobs/{job_id}');

  const messages = {
    /**
     * The whole conversation, a page at a time, newest first: the request read shows only the
     * newest 1,000 messages, this list reaches every one.
     */
    list: onRequest.list('/v1/request/{id}/messages'),
  };

  const files = agentFiles(transport, onRequest, tokenHeader);

  const paymentRequests = {
    /**
     * Every payment request of the request, newest first, whatever its status (pending,
     * approved, rejected with its reason, expired); the request read shows approved ones only.
     */
    list: onRequest.list('/v1/request/{id}/payment-requests'),
    get: onRequest.get('/v1/request/{id}/payment-requests/{payment_request_id}'),
  };

  const payments = {
    /** The payments of the request (one per approved payment request) with their outcome. */
    list: onRequest.list('/v1/request/{id}/payments'),
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
    get: onRequest.get('/v1/request/{id}'),
    /** Writes into the conversation; `attachments` names files uploaded with `files.upload`. */
    sendMessage: onRequest.send('/v1/request/{id}/message'),
    /** Proposes a payment request; staff approve it before it shows in reads. */
    proposePayment: onRequest.send('/v1/request/{id}/payment-request'),
    /**
     * Cancels the request while no provider is engaged (`submitted`, `routed`), optionally with
     * `{ reason }` for staff; once work is under way, 409 `invalid_state_transition` (open a
     * dispute instead). Answers the request as `get` reads it.
     */
    cancel: onRequest.send('/v1/request/{id}/cancel', {}),
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
          params: { path: { id }, header: tokenHeader(id, opts), query },
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
    files,
    paymentRequests,
    payments,
    proposals,
    milestones,
    disputes,
    deliverables,
    jobs,
  };

  const events = { ...calls.collection('/v1/events/{id}') };
  const redeliver = calls.post('/v1/events/{id}/redeliver');

  const webhookEndpoints = {
    create: calls.send('/v1/webhook-endpoints'),
    list: () => calls.pages('/v1/webhook-endpoints')(),
    get: calls.get('/v1/webhook-endpoints/{id}'),
    update: calls.patch('/v1/webhook-endpoints/{id}'),
    delete: calls.delete('/v1/webhook-endpoints/{id}'),
    /** The delivery attempts to the endpoint, newest first, with status code and duration. */
    attempts: calls.pages('/v1/webhook-endpoints/{id}/attempts'),
    rotateSecret: calls.send('/v1/webhook-endpoints/{id}/rotate-secret', {}),
  };

  return {
    /** The generated client itself, for any operation (`api.GET('/v1/...', ...)`) with `unwrap`. */
    api,
    testHelpers: testHelpers(calls, options.apiKey),
    capabilities: calls.get('/v1/capabilities'),
    services: calls.get('/v1/services'),
    me: calls.get('/v1/me'),
    requests,
    events: { ...events, redeliver },
    webhookEndpoints,
  };
}

export type HandoffClient = ReturnType<typeof createHandoffClient>;
