import { BusError } from '@handoff/bus';
import {
  currencyExponent,
  DEFAULT_CURRENCY,
  fitsCurrency,
  ListQuery,
  requestOps,
  sha256Hex,
} from '@handoff/contracts';
import { z } from 'zod';
import { HttpError, validationFailed, type FieldError } from '../http/errors.ts';
import type { RouteContext } from '../http/route.ts';

/** Helpers shared by the routes of the work lifecycle (agent, provider and staff sides). */

export const Id = z.string().max(64);

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

type AnyContext = RouteContext<unknown, unknown, unknown>;

/**
 * The customer's side: the request must be the calling integration's and the token must match
 * (`requestOps.get` with the token's SHA-256). An unknown or foreign request is 404
 * `request_not_found` whatever resource the route is about; a wrong token is 403.
 */
export async function authorizeCustomer(ctx: AnyContext, requestId: string) {
  try {
    return await ctx.call(requestOps.get, {
      request_id: requestId,
      integration_id: ctx.agent?.integration_id ?? '',
      token_hash: sha256Hex(ctx.requestToken ?? ''),
    });
  } catch (error) {
    if (error instanceof BusError && error.code === 'not_found') {
      throw new HttpError(404, 'request_not_found', error.message);
    }
    throw error;
  }
}

export const customerParty = (requestId: string) => ({
  role: 'customer' as const,
  request_id: requestId,
});

export function providerId(ctx: AnyContext): string {
  if (!ctx.provider) throw new HttpError(401, 'api_key_missing', 'No provider key.');
  return ctx.provider.provider_id;
}

export const providerParty = (ctx: AnyContext) => ({
  role: 'provider' as const,
  provider_id: providerId(ctx),
});

/** Who acted, for the owning service's audit: the staff JWT's `sub`. */
export const staffActor = (ctx: AnyContext) => ctx.staff?.sub ?? 'unknown';

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
