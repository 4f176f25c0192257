import type {
  CategoryRouting as CategoryRoutingSchema,
  CategoryRoutingSummary,
  Provider as ProviderSchema,
  ProviderCreate as ProviderCreateSchema,
  RequestCounts as RequestCountsSchema,
  RoutingOverride,
  RoutingSuggestions as RoutingSuggestionsSchema,
  StaffRequest as StaffRequestSchema,
} from '@handoff/contracts';
import type { paths } from '@handoff/sdk/schema';

export { SCOPES } from '@handoff/contracts';

// Types of the staff API, from the OpenAPI document (packages/sdk/src/generated/schema.ts).
type Ok<Op> = Op extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 201: { content: { 'application/json': infer T } } }
      ? T
      : R extends { 202: { content: { 'application/json': infer T } } }
        ? T
        : never
  : never;
type Staff = paths;

// Types of automatic routing and of the provider's routing profile, from their zod schemas in
// @handoff/contracts (a zod schema is a Standard Schema: its output type is named there).
type Parsed<S extends { '~standard': { types?: { output: unknown } | undefined } }> = NonNullable<
  S['~standard']['types']
>['output'];
interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export type Application = Ok<Staff['/v1/staff/access-applications/{id}']['get']>;
export type ApplicationList = Ok<Staff['/v1/staff/access-applications']['get']>;
export type Scope = Application['requested_scopes'][number];
export type PaymentRequest = Ok<Staff['/v1/staff/payment-requests/{id}/approve']['post']>;
export type PaymentRequestList = Ok<Staff['/v1/staff/payment-requests']['get']>;
export type Payment = Ok<Staff['/v1/staff/payments/{id}']['get']>;
export type PaymentList = Ok<Staff['/v1/staff/payments']['get']>;
export type Dispute = Ok<Staff['/v1/staff/disputes/{id}']['get']>;
export type DisputeList = Ok<Staff['/v1/staff/disputes']['get']>;
export type DeadlineList = Ok<Staff['/v1/staff/deadlines']['get']>;
export type Integration = Ok<Staff['/v1/staff/integrations/{id}']['get']>;
export type IntegrationList = Ok<Staff['/v1/staff/integrations']['get']>;
export type IssuedKey = Ok<Staff['/v1/staff/integrations/{id}/keys']['post']>;
export type Provider = Parsed<typeof ProviderSchema>;
export type ProviderList = List<Provider>;
export type ProviderCreate = Parsed<typeof ProviderCreateSchema>;
export type IssuedProviderKey = Ok<Staff['/v1/staff/providers/{id}/keys']['post']>;
export type ProviderSessionList = Ok<Staff['/v1/staff/providers/{id}/sessions']['get']>;
export type StaffRequest = Parsed<typeof StaffRequestSchema>;
export type StaffRequestList = List<StaffRequest>;
export type AutoRouting = StaffRequest['automatic_routing'];
export type RoutingOffer = AutoRouting['offers'][number];
export type RoutingCandidate = NonNullable<AutoRouting['decision']>['candidates'][number];
export type RequestCounts = Parsed<typeof RequestCountsSchema>;
export type RoutingSuggestions = Parsed<typeof RoutingSuggestionsSchema>;
/** Staff's hand in a request's routing, without the reason the panel adds to each. */
export type RoutingAction = RoutingOverride extends infer O
  ? O extends RoutingOverride
    ? Omit<O, 'reason'>
    : never
  : never;
export type CategoryRouting = Parsed<typeof CategoryRoutingSchema>;
export type CategorySummary = Parsed<typeof CategoryRoutingSummary>;
export type CategoryList = List<CategorySummary>;
export type Timeline = Ok<Staff['/v1/staff/requests/{id}/timeline']['get']>;
export type RequestFileList = Ok<Staff['/v1/staff/requests/{id}/files']['get']>;
export type AuditList = Ok<Staff['/v1/staff/audit-log']['get']>;
type Webhooks = '/v1/staff/integrations/{id}';
export type EndpointList = Ok<Staff[`${Webhooks}/webhook-endpoints`]['get']>;
export type AttemptList = Ok<Staff[`${Webhooks}/webhook-endpoints/{endpoint_id}/attempts`]['get']>;
export type RotatedSecret = Ok<
  Staff[`${Webhooks}/webhook-endpoints/{endpoint_id}/rotate-secret`]['post']
>;
export type Redelivery = Ok<Staff[`${Webhooks}/events/{event_id}/redeliver`]['post']>;

/** An RFC 9457 problem the API answered with, or a network failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, detail: string) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

/** Answers after which the change may or may not have been made: retry it with the same key. */
const unanswered = (status: number, code: string | undefined) =>
  status >= 500 || status === 429 || (status === 409 && code === 'idempotency_key_in_use');

/**
 * Calls the staff API with the token held in memory (never in storage or a cookie). Every change
 * carries an Idempotency-Key, one per user action: a click that repeats an action whose answer
 * never came (the network failed, a 5xx, a 429, the key still in flight) sends that action's key
 * again, so the gateway replays what the first attempt did instead of acting twice. Once the API
 * has answered the action, or for any other action (another path or body), the key is new.
 */
export class StaffApi {
  readonly #token: string;
  readonly #onUnauthorized: () => void;
  /** The key of each action not answered yet, by method, path and body. */
  readonly #pending = new Map<string, string>();

  constructor(token: string, onUnauthorized: () => void = () => undefined) {
    this.#token = token;
    this.#onUnauthorized = onUnauthorized;
  }

  get<T>(path: string, query: Record<string, string | undefined> = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== '') params.set(name, value);
    }
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return this.#call<T>('GET', `${path}${search}`);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#call<T>('POST', path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.#call<T>('DELETE', path);
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#token}`,
      Accept: 'application/json',
    };
    const action = `${method} ${path} ${body === undefined ? '' : JSON.stringify(body)}`;
    if (method !== 'GET') {
      const key = this.#pending.get(action) ?? crypto.randomUUID();
      this.#pending.set(action, key);
      headers['Idempotency-Key'] = key;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`/v1/staff${path}`, {
        method,
        headers,
        credentials: 'omit',
        cache: 'no-store',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, 'network_error', 'The gateway could not be reached.');
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (a proxy's error page): the status alone tells what happened.
    }
    const problem = (res.ok ? {} : (json ?? {})) as {
      code?: string;
      detail?: string;
      errors?: { pointer: string; detail: string }[];
    };
    if (!unanswered(res.status, problem.code)) this.#pending.delete(action);
    if (!res.ok) {
      const fields = (problem.errors ?? []).map((e) => `${e.pointer}: ${e.detail}`).join('; ');
      const detail = `${problem.detail ?? `HTTP ${res.status}`}${fields ? ` (${fields})` : ''}`;
      if (res.status === 401) this.#onUnauthorized();
      throw new ApiError(res.status, problem.code ?? 'http_error', detail);
    }
    return json as T;
  }
}

export const errorText = (error: unknown): string =>
  error instanceof ApiError
    ? `${error.message} [${error.code}]`
    : error instanceof Error
      ? error.message
      : String(error);
