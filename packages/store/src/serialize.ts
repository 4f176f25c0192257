/**
 * Runs tasks one after another per key, in this process.
 *
 * Why: FerretDB 1.24 on SQLite does not apply a conditional update atomically: concurrent
 * `updateOne({_id, n: 0}, {$set: {n: 1}})` calls can all "win", and concurrent `$inc`s lose
 * increments (measured here: 13 of 30 compare-and-set winners, 12 of 50 increments kept). MongoDB
 * is atomic per document. Our writes are written for MongoDB's guarantee (conditional updates,
 * compare-and-set loops); serializing each document's writes in the owning service makes a
 * single replica on FerretDB behave the same. Several replicas of a service need MongoDB.
 */
export function createSerializer() {
  const tails = new Map<string, Promise<unknown>>();
  return async function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
export type Serializer = ReturnType<typeof createSerializer>;
