import { z } from 'zod';
import { RequestId } from '../http/request-id.ts';

/** The ids of paths: a resource's, and the request's that an agent's routes are about. */

export const Id = z.string().max(64);

/** The `{id}` of a path, and the `{key_id}` of a key's. */
export const IdParams = z.strictObject({ id: Id });
export const KeyParams = z.strictObject({ key_id: Id });

/** The `{id}` of a path under `/v1/request/{id}`: the request whose token the route checks. */
export const RequestParams = z.strictObject({ id: RequestId });

/** A request's id and one child resource's id under it, e.g. `{id, proposal_id}`. */
export const child = <K extends string>(key: K) =>
  z.strictObject({ id: RequestId, [key]: Id } as { id: typeof RequestId } & Record<K, typeof Id>);

/**
 * The request's id and the child's from params that `child(key)` validated (its output type is
 * not known where `key` is only a string).
 */
export function childIds(params: Record<string, string | undefined>, key: string) {
  const { id, [key]: child } = params;
  if (id === undefined || child === undefined) throw new Error(`{id} and {${key}} are validated`);
  return { id, child };
}
