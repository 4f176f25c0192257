import { BusError } from '@handoff/bus';
import {
  type ConflictCode,
  currencyExponent,
  Deliverable,
  DeliverableStatus,
  deliverableOps,
  Dispute,
  DisputeStatus,
  disputeOps,
  Job,
  JobStatus,
  jobOps,
  Milestone,
  MilestoneStatus,
  milestoneOps,
  Proposal,
  ProposalStatus,
  proposalOps,
  DEFAULT_CURRENCY,
  fitsCurrency,
  isRequestClosed,
  listQueryWith,
  type ListQuery,
  listOf,
  Message,
  MessageCreate,
  type NotFoundCode,
  type Operation,
  REQUEST_CLOSED,
  requestClosedDetail,
  type RequestStatus,
  type Scope,
  type StaffAction,
} from '@handoff/contracts';
import { z } from 'zod';
import type { ProviderIdentity } from '../auth/bearer-keys.ts';
import type { StaffIdentity } from '../auth/staff-jwt.ts';
import { HttpError, validationFailed, type FieldError } from '../http/errors.ts';
import {
  type Access,
  type CallerOf,
  defineRoute,
  type RequestTokenContext,
  type RouteDefinition,
} from '../http/route.ts';

/** Helpers shared by the routes of the engagement (agent, provider and staff sides). */

export const Id = z.string().max(64);

/** The `{id}` of a path, and the `{key_id}` of a key's. */
export const IdParams = z.strictObject({ id: Id });
export const KeyParams = z.strictObject({ key_id: Id });

/** A request's id and one child resource's id under it, e.g. `{id, proposal_id}`. */
export const child = <K extends string>(key: K) =>
  z.strictObject({ id: Id, [key]: Id } as { id: typeof Id } & Record<K, typeof Id>);

/**
 * The request's id and the child's from params that `child(key)` validated (its output type is
 * not known where `key` is only a string).
 */
function childIds(params: Record<string, string | undefined>, key: string) {
  const { id, [key]: child } = params;
  if (id === undefined || child === undefined) throw new Error(`{id} and {${key}} are validated`);
  return { id, child };
}

/** A list query with extra filters (conventions §1 paging plus, e.g., `status`). */
export const listQuery = listQueryWith;

/** The paging part of a validated list query, as the bus operations take it. */
export function page(query: { limit: number; starting_after?: string; ending_before?: string }) {
  return {
    limit: query.limit,
    ...(query.starting_after ? { starting_after: query.starting_after } : {}),
    ...(query.ending_before ? { ending_before: query.ending_before } : {}),
  };
}

/** Keeps the filters that were given (the bus schemas take absent, not `undefined`). */
export function given<T extends Record<string, unknown>>(filters: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * A list's query, conventions §1 paging plus `filters`, and the bus input made of the validated
 * query: its page and the filters that were given.
 */
export function filteredList<F extends z.ZodRawShape>(filters: F) {
  const query = listQuery(filters);
  const keys = Object.keys(filters);
  return {
    query,
    input: (valid: z.output<typeof query>) => ({
      // The paging fields are there whatever the filters (TypeScript cannot see it through F).
      ...page(valid as ListQuery),
      ...(given(
        Object.fromEntries(keys.map((key) => [key, (valid as Record<string, unknown>)[key]])),
      ) as Partial<z.output<z.ZodObject<F>>>),
    }),
  };
}

type TokenChecked = Pick<RequestTokenContext, 'authorizeRequest'>;

/**
 * The customer's side: the request must be the calling integration's and the token must match
 * (`ctx.authorizeRequest`). An unknown or foreign request is 404 `request_not_found` whatever
 * resource the route is about; a wrong token is 403.
 */
export async function authorizeCustomer(ctx: TokenChecked, requestId: string): Promise<void> {
  try {
    await ctx.authorizeRequest(requestId);
  } catch (error) {
    if (error instanceof BusError && error.code === 'not_found') {
      throw new HttpError('request_not_found', error.message);
    }
    throw error;
  }
}

/** 409 `request_closed`, naming the state, for an action that a closed request refuses. */
export function refuseClosed(status: RequestStatus): void {
  if (isRequestClosed(status)) {
    throw new HttpError(REQUEST_CLOSED, requestClosedDetail(status), {
      extra: { current_state: status },
    });
  }
}

/**
 * `authorizeCustomer` for an action that only an open request takes (a message, a payment
 * request, an acceptance). The token check is cached and knows no status; the status comes from
 * the replica's request cache, which drops it at the request's next `request.*` event (a cancel
 * through this replica is heard before its call answers), else from a projected read by `_id`
 * in intake, made beside the token check. The token's answer is looked at first, so a caller
 * without access learns nothing of the state.
 */
export async function authorizeOpenRequest(
  ctx: Pick<RequestTokenContext, 'authorizeRequest' | 'requestStatus'>,
  requestId: string,
): Promise<void> {
  const [access, current] = await Promise.allSettled([
    authorizeCustomer(ctx, requestId),
    ctx.requestStatus(requestId),
  ]);
  if (access.status === 'rejected') throw access.reason;
  if (current.status === 'rejected') throw current.reason;
  refuseClosed(current.value);
}

/** A message written into a request's conversation, which a closed request refuses. */
export const NEW_MESSAGE = {
  method: 'post',
  params: IdParams,
  body: MessageCreate,
  status: 201,
  response: Message,
  notFound: 'request_not_found',
  conflicts: [REQUEST_CLOSED],
} as const;

export const customerParty = (requestId: string) => ({
  role: 'customer' as const,
  request_id: requestId,
});

export const providerParty = (ctx: { provider: ProviderIdentity }) => ({
  role: 'provider' as const,
  provider_id: ctx.provider.provider_id,
});

/** Who acted, for the owning service's audit: the staff JWT's `sub`. */
export const staffActor = (ctx: { staff: StaffIdentity }) => ctx.staff.sub;

/**
 * Who acted, for the audit log: the JWT `sub`. The call's id reaches the service as every bus
 * call's does, in the message's call-id header, and the audit entry keeps it from there.
 */
export const audit = (ctx: { staff: StaffIdentity }): StaffAction => ({ actor: staffActor(ctx) });

export const staffParty = (actor: string) => ({ role: 'staff' as const, actor });

/**
 * 422 with a pointer per amount finer than its currency's smallest unit (the schemas document
 * the rule; zod cannot express it per currency).
 */
export function checkPrecision(
  amounts: readonly { pointer: string; amount: number | undefined }[],
  currency: string | undefined,
): void {
  const code = currency ?? DEFAULT_CURRENCY;
  const errors: FieldError[] = amounts
    .filter(
      (entry): entry is { pointer: string; amount: number } =>
        entry.amount !== undefined && !fitsCurrency(entry.amount, code),
    )
    .map(({ pointer }) => ({
      pointer,
      code: 'invalid_precision',
      detail: `${code} amounts have at most ${currencyExponent(code) ?? 2} decimal places.`,
    }));
  if (errors.length > 0) throw validationFailed(errors);
}

/**
 * The resources of the engagement as every side's reads find them: the item, the list's
 * filters beside paging, the bus operations, and the 404 `code` of a single read.
 */
export type EngagementResource = 'proposals' | 'jobs' | 'milestones' | 'deliverables' | 'disputes';

interface ResourceReads {
  /** The path parameter of one item under its request, e.g. `proposal_id`. */
  idParam: string;
  item: z.ZodType;
  filters: z.ZodRawShape;
  ops: { list: Operation; get: Operation };
  notFound: NotFoundCode;
}

const ENGAGEMENT_RESOURCES: Record<EngagementResource, ResourceReads> = {
  proposals: {
    idParam: 'proposal_id',
    item: Proposal,
    filters: { status: ProposalStatus.optional() },
    ops: proposalOps,
    notFound: 'proposal_not_found',
  },
  jobs: {
    idParam: 'job_id',
    item: Job,
    filters: { status: JobStatus.optional() },
    ops: jobOps,
    notFound: 'job_not_found',
  },
  milestones: {
    idParam: 'milestone_id',
    item: Milestone,
    filters: { status: MilestoneStatus.optional(), job_id: Id.optional() },
    ops: milestoneOps,
    notFound: 'milestone_not_found',
  },
  deliverables: {
    idParam: 'deliverable_id',
    item: Deliverable,
    filters: { status: DeliverableStatus.optional(), milestone_id: Id.optional() },
    ops: deliverableOps,
    notFound: 'deliverable_not_found',
  },
  disputes: {
    idParam: 'dispute_id',
    item: Dispute,
    filters: { status: DisputeStatus.optional() },
    ops: disputeOps,
    notFound: 'dispute_not_found',
  },
};

/**
 * The summaries of one side's two reads of a resource in the OpenAPI document. Their operation
 * ids follow the resource: `listJobs` and `getJob` for the customer, `listProviderJobs` and
 * `getProviderJob` for the provider.
 */
export interface ReadSummaries {
  list: string;
  get: string;
}

/**
 * What a side's two reads of a resource share, whoever reads: their OpenAPI fields, and the list's
 * bus input from the side's party, the page and the filters that were given.
 */
function reads(
  plural: EngagementResource,
  side: '' | 'Provider',
  summaries: ReadSummaries,
  tags: readonly string[],
  sideFilters: z.ZodRawShape = {},
) {
  const resource = ENGAGEMENT_RESOURCES[plural];
  const name = `${side}${plural[0]?.toUpperCase()}${plural.slice(1)}`;
  const filtered = filteredList({ ...resource.filters, ...sideFilters });
  return {
    resource,
    list: {
      method: 'get' as const,
      operationId: `list${name}`,
      summary: summaries.list,
      tags,
      query: filtered.query,
      status: 200,
      response: listOf(resource.item),
    },
    get: {
      method: 'get' as const,
      operationId: `get${name.slice(0, -1)}`,
      summary: summaries.get,
      tags,
      status: 200,
      response: resource.item,
      notFound: resource.notFound,
    },
    listInput: (party: object, query: unknown) => ({
      party,
      ...filtered.input(query as z.output<typeof filtered.query>),
    }),
  };
}

/**
 * The customer's reads of one resource under `/v1/request/{id}/<plural>`: the request token is
 * checked with intake first, then the milestones service answers for that request only.
 */
export function customerReads(
  plural: EngagementResource,
  scope: Scope,
  summaries: ReadSummaries,
): RouteDefinition[] {
  const { resource, list, get, listInput } = reads(plural, '', summaries, [plural]);
  const access = { kind: 'agent' as const, scopes: [scope] };
  const base = `/v1/request/{id}/${plural}`;
  return [
    defineRoute({
      ...list,
      path: base,
      access,
      requestToken: true,
      params: IdParams,
      notFound: 'request_not_found',
      handle: async (ctx) => {
        await authorizeCustomer(ctx, ctx.params.id);
        return ctx.call(resource.ops.list, listInput(customerParty(ctx.params.id), ctx.query));
      },
    }),
    defineRoute({
      ...get,
      path: `${base}/{${resource.idParam}}`,
      access,
      requestToken: true,
      notFoundAlso: ['request_not_found'],
      params: z.strictObject({ id: Id, [resource.idParam]: Id }),
      handle: async (ctx) => {
        const { id, child: item } = childIds(ctx.params, resource.idParam);
        await authorizeCustomer(ctx, id);
        return ctx.call(resource.ops.get, { id: item, party: customerParty(id) });
      },
    }),
  ];
}

/**
 * A provider's lists span every request it worked on; this one narrows a list to one request's
 * items (the workspace's request page), found by the request and checked for the provider in
 * the milestones service, so its cost does not grow with the provider's history.
 */
const ONE_REQUEST = {
  request_id: Id.optional().meta({
    description: "Only the items of this request (the provider's own, as always).",
  }),
};

/** A provider's reads of its own resources under `/v1/provider/<plural>`. */
export function providerReads(
  plural: EngagementResource,
  summaries: ReadSummaries,
): RouteDefinition[] {
  const { resource, list, get, listInput } = reads(
    plural,
    'Provider',
    summaries,
    ['provider', plural],
    ONE_REQUEST,
  );
  const access = { kind: 'provider' as const };
  const base = `/v1/provider/${plural}`;
  return [
    defineRoute({
      ...list,
      path: base,
      access,
      handle: (ctx) => ctx.call(resource.ops.list, listInput(providerParty(ctx), ctx.query)),
    }),
    defineRoute({
      ...get,
      path: `${base}/{id}`,
      access,
      params: IdParams,
      handle: (ctx) => ctx.call(resource.ops.get, { id: ctx.params.id, party: providerParty(ctx) }),
    }),
  ];
}

/**
 * A `POST` on one resource that one side of the API may make: a state move (`accept`,
 * `withdraw`), a comment, or a child created under it. The route states what differs; the
 * factory of each side adds its path, access and party, and `input` turns the resource's id, the
 * caller's own id and the body into the bus operation's input.
 */
export interface ActionSpec<Who, I extends z.ZodType, O extends z.ZodType, B extends z.ZodType> {
  /** The resource's collection, e.g. `proposals`. */
  plural: string;
  /** The last segment of the path, e.g. `accept`. */
  verb: string;
  operationId: string;
  summary: string;
  /** Default: the side's tag (none for the customer's) and `plural`. */
  tags?: readonly string[];
  op: Operation<I, O>;
  body?: B;
  bodyOptional?: boolean;
  /** 201 when the action creates a child resource. */
  status?: 200 | 201;
  response: z.ZodType;
  /** Default: the 404 code of `plural` when it is a resource of the engagement. */
  notFound?: NotFoundCode;
  conflicts?: readonly ConflictCode[];
  input(who: Who, body: z.output<B>): z.input<I>;
}

const isEngagementResource = (plural: string): plural is EngagementResource =>
  Object.hasOwn(ENGAGEMENT_RESOURCES, plural);

const routeFields = <Who, I extends z.ZodType, O extends z.ZodType, B extends z.ZodType>(
  spec: ActionSpec<Who, I, O, B>,
  side: readonly string[],
) => {
  const notFound =
    spec.notFound ??
    (isEngagementResource(spec.plural) ? ENGAGEMENT_RESOURCES[spec.plural].notFound : undefined);
  if (notFound === undefined) throw new Error(`${spec.operationId} names no 404 code`);
  return {
    method: 'post' as const,
    operationId: spec.operationId,
    summary: spec.summary,
    tags: spec.tags ?? [...side, spec.plural],
    body: spec.body,
    bodyOptional: spec.bodyOptional,
    status: spec.status ?? 200,
    response: spec.response,
    notFound,
    conflicts: spec.conflicts,
  };
};

/**
 * The customer's action under `/v1/request/{id}/<plural>/{<idParam>}/<verb>` (the resource's
 * `idParam`, e.g. `proposal_id`): the request token is checked first (and, with `openRequest`,
 * that the request is open), then the resource is looked for under that request only.
 */
export function customerAction<
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  spec: ActionSpec<{ id: string; request_id: string }, I, O, B> & {
    plural: EngagementResource;
    scope: Scope;
    openRequest?: boolean;
  },
): RouteDefinition {
  const authorize = spec.openRequest ? authorizeOpenRequest : authorizeCustomer;
  const { idParam } = ENGAGEMENT_RESOURCES[spec.plural];
  return defineRoute({
    ...routeFields(spec, []),
    path: `/v1/request/{id}/${spec.plural}/{${idParam}}/${spec.verb}`,
    access: { kind: 'agent', scopes: [spec.scope] },
    requestToken: true,
    notFoundAlso: ['request_not_found'],
    params: child(idParam),
    handle: async (ctx) => {
      const { id, child: resource } = childIds(ctx.params, idParam);
      await authorize(ctx, id);
      return ctx.call(spec.op, spec.input({ id: resource, request_id: id }, ctx.body));
    },
  });
}

/** A provider's or staff's action under `/v1/<side>/<plural>/{id}/<verb>`, `who` acting. */
function ownAction<
  K extends 'provider' | 'staff',
  W,
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType,
>(
  kind: K,
  who: (ctx: CallerOf[K]) => W,
  spec: ActionSpec<{ id: string } & W, I, O, B>,
): RouteDefinition {
  return defineRoute({
    ...routeFields(spec, [kind]),
    path: `/v1/${kind}/${spec.plural}/{id}/${spec.verb}`,
    access: { kind } as Extract<Access, { kind: K }>,
    params: IdParams,
    handle: (ctx) => ctx.call(spec.op, spec.input({ id: ctx.params.id, ...who(ctx) }, ctx.body)),
  });
}

/** The provider's action under `/v1/provider/<plural>/{id}/<verb>`, on its own resources only. */
export const providerAction = <
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  spec: ActionSpec<{ id: string; provider_id: string }, I, O, B>,
): RouteDefinition =>
  ownAction('provider', (ctx) => ({ provider_id: ctx.provider.provider_id }), spec);

/** Staff's action under `/v1/staff/<plural>/{id}/<verb>`; `actor` is who acted, for the audit. */
export const staffAction = <
  I extends z.ZodType,
  O extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(
  spec: ActionSpec<{ id: string; actor: string }, I, O, B>,
): RouteDefinition => ownAction('staff', (ctx) => ({ actor: staffActor(ctx) }), spec);
