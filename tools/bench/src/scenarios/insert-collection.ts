import { MongoClient, type Document } from 'mongodb';
import type { ScenarioContext } from '../types.ts';

/**
 * The collection the insert scenarios write to: `collection` in `database` on the server at
 * `url`, through a client of the official driver pooled for the run's connections. The database
 * is dropped before the run (nothing left from an earlier one) and after it, and the client
 * closed, by steps registered with `ctx`.
 */
export async function insertCollection<T extends Document>(
  ctx: ScenarioContext,
  url: string,
  database: string,
  collection: string,
) {
  const client = new MongoClient(url, {
    appName: 'handoff-bench',
    maxPoolSize: Math.max(ctx.connections, 10),
    serverSelectionTimeoutMS: 10_000,
    retryWrites: false,
  });
  ctx.teardown(() => client.close());
  await client.connect();
  const db = client.db(database);
  // Registered after the close above, so it runs before it.
  ctx.teardown(() => db.dropDatabase());
  await db.dropDatabase();
  await db.createCollection(collection);
  return db.collection<T>(collection);
}
