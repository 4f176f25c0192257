import { createApi, createTransport, type ClientOptions } from './client.ts';
import { unwrap } from './errors.ts';
import { downloads, uploader, type UploadBody, type UploadOptions } from './files.ts';
import { operations } from './operations.ts';
import { toArray } from './paginate.ts';
import type { QueryOf } from './types.ts';

export type ProviderClientOptions = ClientOptions &
  (
    | {
        /** The provider key, `hpk_live_...`. */
        apiKey: string;
      }
    | {
        /**
         * Signed in to the workspace (in its page): the browser sends the session cookie, and
         * every change carries the session's `csrf_token` (from `createWorkspaceClient`).
         */
        session: { csrfToken: string };
      }
  );

export interface StaffClientOptions extends ClientOptions {
  /** A staff JWT (`roles` containing `staff`). */
  token: string;
}

export type { ListOption } from './operations.ts';

/**
 * The provider API (`/v1/provider/*`) with a provider key (`hpk_live_`): the same retries,
 * idempotency keys, paging and `HandoffError` as the agent client. Every list is an async
 * iterator over all its pages: `for await (const job of provider.jobs.list({ status: 'active' }))`.
 */
export function createProviderClient(options: ProviderClientOptions) {
  const transport = createTransport(
    options,
    'apiKey' in options ? `Bearer ${options.apiKey}` : { csrfToken: options.session.csrfToken },
  );
  const { api } = transport;
  const { collection, get, post, send, patch, list, pages } = operations(api);
  const upload = uploader(transport);

  const requests = {
    /** The requests routed to this provider, newest first, each with its unread messages. */
    list: list('/v1/provider/requests'),
    get: get('/v1/provider/requests/{id}'),
    /** The request's conversation, newest first; `mine` marks what this provider wrote. */
    messages: pages('/v1/provider/requests/{id}/messages'),
    /**
     * Writes into the request's conversation with the customer's agent; `attachments` names
     * files uploaded with `uploadFile`.
     */
    sendMessage: send('/v1/provider/requests/{id}/messages'),
    /** Uploads a file into the request's conversation (the body is its bytes, streamed). */
    uploadFile: (id: string, body: UploadBody, opts: UploadOptions) =>
      upload('/v1/provider/requests/{id}/files', { id }, body, opts),
    /** The request's files this provider may see, each with a download URL (15 minutes). */
    files: pages('/v1/provider/requests/{id}/files'),
    /** One file of the request with a fresh download URL. */
    file: get('/v1/provider/requests/{id}/files/{file_id}'),
    /** Marks the conversation read (its unread count goes back to 0). */
    markRead: post('/v1/provider/requests/{id}/read'),
    /** What has been paid on a request the provider is engaged on. */
    payments: pages('/v1/provider/requests/{id}/payments'),
    /**
     * The long-poll: what changed after `after`, waiting up to `wait` seconds (at most 25) for
     * the next change; messages come whole (with `mine`), anything else as `{object, id, status}`
     * to read again. `signal` ends the wait (a page that closes, a component that unmounts).
     */
    events: (
      id: string,
      query: QueryOf<'/v1/provider/requests/{id}/events', 'get'> = {},
      opts: { signal?: AbortSignal } = {},
    ) =>
      unwrap(
        api.GET('/v1/provider/requests/{id}/events', {
          params: { path: { id }, query },
          ...(opts.signal ? { signal: opts.signal } : {}),
        }),
      ),
    /** Proposes to do the request (amount, days, milestones); the agent accepts or declines. */
    propose: send('/v1/provider/requests/{id}/proposals'),
    /** Accepts the request's offer before its `respond_by`. */
    acceptOffer: post('/v1/provider/requests/{id}/offer/accept'),
    /** Declines the request's offer (`{ reason }` optional): it goes to the next provider. */
    declineOffer: send('/v1/provider/requests/{id}/offer/decline', {}),
  };

  const fileDownloads = downloads(transport.plain, (file) =>
    requests.file(file.request_id, file.id),
  );

  const notificationSettings = {
    get: get('/v1/provider/notification-settings'),
    /** Turns kinds of email on or off: `{ kinds: { message_received: false } }`. */
    update: patch('/v1/provider/notification-settings'),
  };

  const proposals = {
    ...collection('/v1/provider/proposals/{id}'),
    withdraw: post('/v1/provider/proposals/{id}/withdraw'),
  };

  const jobs = {
    ...collection('/v1/provider/jobs/{id}'),
    complete: post('/v1/provider/jobs/{id}/complete'),
    addMilestone: send('/v1/provider/jobs/{id}/milestones'),
  };

  const milestones = {
    ...collection('/v1/provider/milestones/{id}'),
    /** Adds a deliverable: a `url`, or `files` uploaded with `uploadFile` first, or both. */
    addDeliverable: send('/v1/provider/milestones/{id}/deliverables'),
    /** Uploads a file for a deliverable of the milestone; then `addDeliverable({ files })`. */
    uploadFile: (id: string, body: UploadBody, opts: UploadOptions) =>
      upload('/v1/provider/milestones/{id}/files', { id }, body, opts),
    reportProgress: send('/v1/provider/milestones/{id}/progress'),
    /** Submits the milestone for the customer's approval. */
    submit: send('/v1/provider/milestones/{id}/submit', {}),
  };

  const deliverables = {
    ...collection('/v1/provider/deliverables/{id}'),
    withdraw: post('/v1/provider/deliverables/{id}/withdraw'),
  };

  const disputes = {
    ...collection('/v1/provider/disputes/{id}'),
    comment: send('/v1/provider/disputes/{id}/comments'),
  };

  return {
    /** The generated client itself, for any operation (`api.GET('/v1/...', ...)`) with `unwrap`. */
    api,
    me: get('/v1/provider/me'),
    /**
     * Downloads a file (the `Response`, its body unread); given the file, an expired URL is
     * renewed by reading it again. `fileBytes` answers the bytes.
     */
    downloadFile: fileDownloads.download,
    fileBytes: fileDownloads.bytes,
    /** Sets the provider's languages and availability (`{ availability: 'away' }`). */
    updateMe: patch('/v1/provider/me'),
    requests,
    notificationSettings,
    proposals,
    jobs,
    milestones,
    deliverables,
    disputes,
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;

/**
 * The workspace's own calls, before and around a session: asking for a sign-in link, exchanging
 * it for a session (the gateway sets the cookie), reading the session (its `csrf_token` for
 * `createProviderClient({ session })`) and signing out. In a browser, on the gateway's origin.
 */
export function createWorkspaceClient(options: ClientOptions & { csrfToken?: string }) {
  const api = createApi(options, { csrfToken: options.csrfToken ?? '' });
  const { get, post, send } = operations(api);
  return {
    api,
    /** Mails a sign-in link to the address if it is a provider's; the same answer either way. */
    askForLink: send('/v1/workspace/sign-in'),
    /** Exchanges a link's token for a session: the cookie, and the answer's `csrf_token`. */
    signIn: send('/v1/workspace/session'),
    session: get('/v1/workspace/session'),
    /** Needs the session's `csrfToken` in the options. */
    signOut: post('/v1/workspace/session/end'),
    /** Turns off the kind of email an unsubscribe link names (no sign-in needed). */
    unsubscribe: send('/v1/notifications/unsubscribe'),
  };
}

export type WorkspaceClient = ReturnType<typeof createWorkspaceClient>;

/**
 * The staff API (`/v1/staff/*`) with a staff JWT: the same shape as the provider client, one
 * resource per staff collection, every list an async iterator over all its pages.
 */
export function createStaffClient(options: StaffClientOptions) {
  const transport = createTransport(options, `Bearer ${options.token}`);
  const { api } = transport;
  const { collection, get, post, send, patch, list, pages } = operations(api);

  const requests = {
    ...collection('/v1/staff/requests/{id}'),
    /** Changes the request: its status, its routing (`{ mode: 'direct', provider_ids }`), ... */
    update: patch('/v1/staff/requests/{id}'),
    marketplaceReview: send('/v1/staff/requests/{id}/marketplace-review'),
    /** Everything of one request, oldest first (the newest 100 of each kind). */
    timeline: get('/v1/staff/requests/{id}/timeline'),
    /** How many requests of a filter are in each status and routing state. */
    counts: (query: QueryOf<'/v1/staff/request-counts', 'get'> = {}) =>
      unwrap(api.GET('/v1/staff/request-counts', { params: { query } })),
    /** Offers it to a provider, runs the rules again or stops them (`{ action, reason }`). */
    overrideRouting: send('/v1/staff/requests/{id}/routing'),
    /** Whom the rules would choose now, and why. */
    routingSuggestions: get('/v1/staff/requests/{id}/routing/suggestions'),
    /** Every file of the request (conversation and deliverables), each with a download URL. */
    files: pages('/v1/staff/requests/{id}/files'),
  };

  // Staff read one file by listing its request's: a fresh URL when one has expired.
  const fileDownloads = downloads(transport.plain, async (file) => {
    const found = (await toArray(requests.files(file.request_id))).find(
      (item) => item.id === file.id,
    );
    if (!found) throw new Error(`The file ${file.id} is no longer on ${file.request_id}.`);
    return found;
  });

  const routing = {
    /** Every category with its settings, providers and queued requests. */
    categories: get('/v1/staff/routing/categories'),
    /** Pauses (`{ paused: true, reason }`) or resumes a category, or sets its window and limit. */
    updateCategory: patch('/v1/staff/routing/categories/{category}'),
  };

  const providers = {
    create: send('/v1/staff/providers'),
    ...collection('/v1/staff/providers/{id}'),
    update: patch('/v1/staff/providers/{id}'),
    /** Issues a provider key; its `api_key` (`hpk_live_`) is shown only in this answer. */
    createKey: send('/v1/staff/providers/{id}/keys', {}),
    revokeKey: post('/v1/staff/provider-keys/{key_id}/revoke'),
    /** The provider's workspace sessions, newest first (`{ status: 'active' }`). */
    sessions: list('/v1/staff/providers/{id}/sessions'),
    /** Ends a workspace session on every gateway at once. */
    revokeSession: post('/v1/staff/provider-sessions/{session_id}/revoke'),
  };

  const paymentRequests = {
    list: list('/v1/staff/payment-requests'),
    approve: post('/v1/staff/payment-requests/{id}/approve'),
    reject: send('/v1/staff/payment-requests/{id}/reject'),
  };

  const payments = {
    ...collection('/v1/staff/payments/{id}'),
    confirm: send('/v1/staff/payments/{id}/confirm', {}),
    fail: send('/v1/staff/payments/{id}/fail'),
  };

  const disputes = {
    ...collection('/v1/staff/disputes/{id}'),
    comment: send('/v1/staff/disputes/{id}/comments'),
    escalate: post('/v1/staff/disputes/{id}/escalate'),
    resolve: send('/v1/staff/disputes/{id}/resolve'),
  };

  const jobs = {
    cancel: send('/v1/staff/jobs/{id}/cancel'),
  };

  const milestones = {
    cancel: send('/v1/staff/milestones/{id}/cancel'),
  };

  const accessApplications = {
    ...collection('/v1/staff/access-applications/{id}'),
    /** Approves the application with the scopes its integration's keys get. */
    approve: send('/v1/staff/access-applications/{id}/approve'),
    reject: send('/v1/staff/access-applications/{id}/reject'),
  };

  const integrations = {
    ...collection('/v1/staff/integrations/{id}'),
    update: patch('/v1/staff/integrations/{id}'),
    /** Issues an agent key of the integration; its `api_key` is shown only in this answer. */
    createKey: send('/v1/staff/integrations/{id}/keys'),
    revokeKey: post('/v1/staff/keys/{key_id}/revoke'),
    redeliverEvent: post('/v1/staff/integrations/{id}/events/{event_id}/redeliver'),
    webhookEndpoints: pages('/v1/staff/integrations/{id}/webhook-endpoints'),
    /** The delivery attempts to one of the integration's endpoints, newest first. */
    webhookAttempts: pages('/v1/staff/integrations/{id}/webhook-endpoints/{endpoint_id}/attempts'),
    rotateWebhookSecret: send(
      '/v1/staff/integrations/{id}/webhook-endpoints/{endpoint_id}/rotate-secret',
      {},
    ),
  };

  return {
    /** The generated client itself, for any operation (`api.GET('/v1/...', ...)`) with `unwrap`. */
    api,
    /** Every backend service as this gateway sees it, and the long-polls it holds. */
    health: get('/v1/staff/health'),
    /** Everything waiting on a deadline, soonest first (`{ overdue: 'true' }`, `{ before }`). */
    deadlines: (query: QueryOf<'/v1/staff/deadlines', 'get'> = {}) =>
      unwrap(api.GET('/v1/staff/deadlines', { params: { query } })),
    /** Every staff action, newest first. */
    auditLog: pages('/v1/staff/audit-log'),
    /** Downloads a file (the `Response`); given the file, an expired URL is renewed. */
    downloadFile: fileDownloads.download,
    fileBytes: fileDownloads.bytes,
    requests,
    routing,
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
