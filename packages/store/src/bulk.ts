import type { AnyBulkWriteOperation, Collection, Document, Filter } from 'mongodb';
import { abortable } from './group-commit.ts';

/**
 * The most updates one `bulkWrite` command carries. FerretDB 1.24 on PostgreSQL keeps the query
 * cursor of every update in a command open until the whole command ends, and each update takes
 * one more connection to write: a command with as many updates as its pool has connections
 * (50 by default) waits for itself forever, and every other client of that FerretDB with it.
 * Small commands one after another keep order and cost a round trip per chunk; MongoDB does not
 * care either way.
 */
export const MAX_OPERATIONS_PER_COMMAND = 16;

/**
 * `bulkWrite` in commands of at most `MAX_OPERATIONS_PER_COMMAND`, one after another; returns
 * how many documents the updates matched in all. `signal` aborts the command under way and the
 * rest.
 */
export async function bulkWriteInChunks<T extends Document>(
  collection: Collection<T>,
  operations: readonly AnyBulkWriteOperation<T>[],
  options: { ordered: boolean; signal?: AbortSignal },
): Promise<{ matched: number }> {
  let matched = 0;
  const { signal, ...write } = options;
  for (let start = 0; start < operations.length; start += MAX_OPERATIONS_PER_COMMAND) {
    signal?.throwIfAborted();
    const result = await collection.bulkWrite(
      operations.slice(start, start + MAX_OPERATIONS_PER_COMMAND),
      abortable(write, signal),
    );
    matched += result.matchedCount;
  }
  return { matched };
}

/**
 * Deletes the documents whose `field` equals each of `values`: one `deleteMany` per value (an
 * equality, which FerretDB pushes down to an index where an `$in` would read the whole
 * collection), in commands of at most `MAX_OPERATIONS_PER_COMMAND`; returns how many went.
 */
export async function deleteEach<T extends Document>(
  collection: Collection<T>,
  field: string,
  values: readonly string[],
): Promise<number> {
  const operations = values.map((value): AnyBulkWriteOperation<T> => ({
    deleteMany: { filter: { [field]: value } as Filter<T> },
  }));
  let deleted = 0;
  for (let start = 0; start < operations.length; start += MAX_OPERATIONS_PER_COMMAND) {
    const result = await collection.bulkWrite(
      operations.slice(start, start + MAX_OPERATIONS_PER_COMMAND),
      { ordered: false },
    );
    deleted += result.deletedCount;
  }
  return deleted;
}
