import { z } from 'zod';

/**
 * The path parameter naming the request a route is about, under `/v1/request/{id}`. A route
 * with one must say what it needs of the request's token (`requestToken` in route.ts), and the
 * pipeline finds the parameter by this very schema object, so it is its own, not `Id` branded.
 */
export const RequestId = z.string().max(64).brand<'RequestId'>();

/** The names of the parameters whose schema is {@link RequestId}. */
export function requestIdParams(params: z.ZodType | undefined): string[] {
  if (!(params instanceof z.ZodObject)) return [];
  return Object.entries(params.shape)
    .filter(([, schema]) => schema === RequestId)
    .map(([name]) => name);
}
