import { BusError } from '@handoff/bus';
import {
  currencyExponent,
  DEFAULT_CURRENCY,
  fitsCurrency,
  isRequestClosed,
  ListQuery,
  listOf,
  type NotFoundCode,
  type Operation,
  REQUEST_CLOSED,
  requestClosedDetail,
  type RequestStatus,
  type Scope,
} from '@handoff/contracts';
import { z } from 'zod';
import type { ProviderIdentity } from '../auth/bearer-keys.ts';
import type { StaffIdentity } from '../auth/staff-jwt.ts';
import { HttpError, validationFailed, type FieldError } from '../http/errors.ts';
import { defineRoute, type RequestTokenContext, type RouteDefinition } from '../http/route.ts';

/** Helpers shared by the routes of the work lifecycle (agent, provider and staff sides). */

export const Id = z.string().max(64);

/** A request's id and one child resource's id under it, e.g. `{id, proposal_id}`. */
export const child = <K extends string>(key: K) =>
  z.strictObject({ id: Id, [key]: Id } as { id: typeof Id } & Record<K, typeof Id>);

/** A list query with extra filters (conventions §1 paging plus, e.g., `status`). */
export const listQuery = <T extends z.ZodRawShape>(filters: T) => ListQuery.and(z.object(filters));

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

/** A resource's paged list and single read, as one side of the API offers them. */
export interface ReadSpec {
  /** The tags of both routes. */
  tags: readonly string[];
  item: z.ZodType;
  /** The list's filters beside paging, e.g. `{ status: ProposalStatus.optional() }`. */
  filters: z.ZodRawShape;
  ops: { list: Operation; get: Operation };
  list: { operationId: string; summary: string };
  get: { operationId: string; summary: string };
  /** The 404 `code` of the single read. */
  notFound: NotFoundCode;
}

const pick = (query: Record<string, unknown>, keys: string[]) =>
  given(Object.fromEntries(keys.map((key) => [key, query[key]])));

type Paged = Record<string, unknown> & Parameters<typeof page>[0];

/**
 * The customer's reads of one resource under `/v1/request/{id}/<plural>`: the request token is
 * checked with intake first, then the milestones service answers for that request only.
 */
export function customerReads(
  spec: ReadSpec & { plural: string; idParam: string; scope: Scope },
): RouteDefinition[] {
  const access = { kind: 'agent' as const, scopes: [spec.scope] };
  const base = `/v1/request/{id}/${spec.plural}`;
  const one = z.strictObject({ id: Id, [spec.idParam]: Id });
  return [
    defineRoute({
      method: 'get',
      path: base,
      ...spec.list,
      tags: spec.tags,
      access,
      requestToken: true,
      params: z.strictObject({ id: Id }),
      query: listQuery(spec.filters),
      status: 200,
      response: listOf(spec.item),
      notFound: 'request_not_found',
      handle: async (ctx) => {
        await authorizeCustomer(ctx, ctx.params.id);
        const query = ctx.query as Paged;
        return ctx.call(spec.ops.list, {
          party: customerParty(ctx.params.id),
          ...page(query),
          ...pick(query, Object.keys(spec.filters)),
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{${spec.idParam}}`,
      ...spec.get,
      tags: spec.tags,
      access,
      requestToken: true,
      notFoundAlso: ['request_not_found'],
      params: one,
      status: 200,
      response: spec.item,
      notFound: spec.notFound,
      handle: async (ctx) => {
        const params = ctx.params as Record<string, string> & { id: string };
        await authorizeCustomer(ctx, params.id);
        return ctx.call(spec.ops.get, {
          id: params[spec.idParam],
          party: customerParty(params.id),
        });
      },
    }),
  ];
}

/** A provider's reads of its own resources under `/v1/provider/<plural>`. */
export function providerReads(spec: ReadSpec & { plural: string }): RouteDefinition[] {
  const access = { kind: 'provider' as const };
  const base = `/v1/provider/${spec.plural}`;
  return [
    defineRoute({
      method: 'get',
      path: base,
      ...spec.list,
      tags: spec.tags,
      access,
      query: listQuery(spec.filters),
      status: 200,
      response: listOf(spec.item),
      handle: (ctx) => {
        const query = ctx.query as Paged;
        return ctx.call(spec.ops.list, {
          party: providerParty(ctx),
          ...page(query),
          ...pick(query, Object.keys(spec.filters)),
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{id}`,
      ...spec.get,
      tags: spec.tags,
      access,
      params: z.strictObject({ id: Id }),
      status: 200,
      response: spec.item,
      notFound: spec.notFound,
      handle: (ctx) => ctx.call(spec.ops.get, { id: ctx.params.id, party: providerParty(ctx) }),
    }),
  ];
}
