import { startMongo } from '@handoff/testkit';
import { MongoClient } from 'mongodb';
import type { Scenario } from '../types.ts';

const DATABASE = 'handoff_bench';
const COLLECTION = 'inserts';

/** One small document per call, acknowledged, through the official driver. */
export const mongoInsertOne: Scenario = {
  name: 'mongo-insert-one',
  description:
    'single-document insertOne with the mongodb driver on the real MongoDB-wire server; closed loop',
  async setup(ctx) {
    const server = await startMongo({ dataDir: ctx.dataDir, env: ctx.env });
    ctx.teardown(() => server.stop());
    ctx.progress(server.description);

    const client = new MongoClient(server.url, {
      appName: 'handoff-bench',
      maxPoolSize: Math.max(ctx.connections, 10),
      serverSelectionTimeoutMS: 10_000,
      retryWrites: false,
    });
    ctx.teardown(() => client.close());
    await client.connect();
    const db = client.db(DATABASE);
    // Registered after the close above, so it runs before it.
    ctx.teardown(() => db.dropDatabase());
    await db.dropDatabase();
    const collection = db.collection(COLLECTION);
    await db.createCollection(COLLECTION);

    let sequence = 0;
    return {
      kind: 'call',
      call: () =>
        collection.insertOne({
          seq: (sequence += 1),
          at: new Date(),
          kind: 'bench',
          payload: { note: 'a small document', tags: ['a', 'b'] },
        }),
    };
  },
};
