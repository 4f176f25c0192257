import { z } from 'zod';

/** RFC 3339 UTC timestamp as the API writes it. */
export const Timestamp = z.iso.datetime();

/**
 * A query string's whole number as the document's `integer` reads it: optionally signed ASCII
 * digits. Other text (` 5`, `5.0`, `0x10`, `1e1`, which `Number()` would all take) stays text, and
 * so fails as not a number.
 */
const queryInteger = (value: unknown) =>
  typeof value === 'string' && /^[+-]?[0-9]+$/.test(value) ? Number(value) : value;

/** The paging of a list query (conventions §1): `limit` 1–100 (default 20), the two cursors. */
const PAGING = {
  limit: z.preprocess(queryInteger, z.number().int().min(1).max(100).default(20)),
  starting_after: z.string().max(64).optional(),
  ending_before: z.string().max(64).optional(),
};

/**
 * A list's query: the paging of conventions §1 (one of the two cursors at most) and `filters`,
 * and nothing else, so an unknown parameter is refused. One object rather than an intersection
 * with the filters: in an intersection a strict side lets through a key the other side strips.
 */
export function listQueryWith<F extends z.ZodRawShape>(filters: F) {
  return z.strictObject({ ...PAGING, ...filters }).refine(
    (query) => {
      // The cursors are there whatever the filters (TypeScript cannot see it through F).
      const cursors = query as { starting_after?: string; ending_before?: string };
      return !(cursors.starting_after && cursors.ending_before);
    },
    {
      message: 'starting_after and ending_before cannot be used together',
      path: ['ending_before'],
    },
  );
}

/** List query of conventions §1, without filters. */
export const ListQuery = listQueryWith({});
export type ListQuery = z.output<typeof ListQuery>;

/**
 * Who did a staff action, for the audit log: the staff member (the JWT `sub`). The call that made
 * them act travels as the bus message's call id (`BUS_HEADERS.callId`), not in the payload.
 */
export const StaffAction = z.object({ actor: z.string().min(1) });
export type StaffAction = z.infer<typeof StaffAction>;

/** A SHA-256 in hex, as secrets, keys and tokens cross the bus (never the value itself). */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** Paging of conventions §1 as it crosses the bus (already validated by the gateway). */
export const BusPage = z.object({
  limit: z.number().int().min(1).max(100),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });
}
